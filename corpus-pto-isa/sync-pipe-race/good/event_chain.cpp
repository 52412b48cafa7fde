// sync-pipe-race (C++, pto-isa's real headers): each instruction is handed the Events of the
// ones it reads after. Each Event's constructor sets its flag with the id its pipe pair's
// counter gives (EventIdCounter), and the instruction waits on it first: every read ordered.
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
    Event<Op::TADD, Op::TSTORE_VEC> added = TADD(c, a, b, loadedA, loadedB);
    TSTORE(dst, c, added);
}
// expect-no-findings
