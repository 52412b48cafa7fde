// sync-deadlock (C++, pto-isa's real headers): the first load's Event is waited by hand and
// then handed to TADD, which waits on it again: its flag was set once, so the second wait
// blocks forever (and the second load is never waited: a race as well).
#include <pto/pto-inst.hpp>
using namespace pto;

extern "C" __global__ AICORE void add_rows(__gm__ float* out, __gm__ float* in0, __gm__ float* in1)
{
    using GlobalData = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;
    using TileData = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64>;
    GlobalData src0(in0);
    GlobalData src1(in1);
    GlobalData dst(out);
    TileData a;
    TileData b;
    TileData c;
    TASSIGN<0x0>(a);
    TASSIGN<0x1000>(b);
    TASSIGN<0x2000>(c);
    Event<Op::TLOAD, Op::TADD> loadedA = TLOAD(a, src0);
    Event<Op::TLOAD, Op::TADD> loadedB = TLOAD(b, src1);
    loadedA.Wait();
    // expect-error@+2 {{sync-deadlock}}
    // expect-error@+1 {{sync-pipe-race}}
    Event<Op::TADD, Op::TSTORE_VEC> added = TADD(c, a, b, loadedA);
    TSTORE(dst, c, added);
}
