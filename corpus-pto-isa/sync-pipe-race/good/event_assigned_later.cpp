// sync-pipe-race (C++, pto-isa's real headers): an Event declared first takes its id from its
// pipe pair's counter when it is built, and sets its flag when an instruction's record is
// assigned to it (EventBase::operator=): the load is ordered before the add.
#include <pto/pto-inst.hpp>
using namespace pto;

extern "C" __global__ AICORE void add_rows(__gm__ float* out, __gm__ float* in0)
{
    using GlobalData = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;
    using TileData = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64>;
    GlobalData src0(in0);
    GlobalData dst(out);
    TileData a;
    TileData c;
    TASSIGN<0x0>(a);
    TASSIGN<0x2000>(c);
    Event<Op::TLOAD, Op::TADD> loaded;
    Event<Op::TADD, Op::TSTORE_VEC> added;
    loaded = TLOAD(a, src0);
    added = TADD(c, a, a, loaded);
    TSTORE(dst, c, added);
}
// expect-no-findings
