// sync-pipe-race (C++, pto-isa's real headers): the Events of the two loads are waited only
// after TADD, which is handed neither, so TADD on PIPE_V reads tiles MTE2 may still be writing.
// Variant of corpus-pto-isa/sync-pipe-race/good/event_chain.cpp.
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
    // expect-error@+2 {{sync-pipe-race}}
    // expect-error@+1 {{sync-pipe-race}}
    Event<Op::TADD, Op::TSTORE_VEC> added = TADD(c, a, b);
    TSTORE(dst, c, added);
    loadedA.Wait();
    loadedB.Wait();
}
