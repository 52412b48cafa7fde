// sync-pipe-race (C++, pto-isa's real headers): PtoSetWaitFlag<Src, Dst>() is inlined from its
// real body (a set_flag and a wait_flag on EVENT_ID0 by default): both hand-overs are ordered.
#include <pto/pto-inst.hpp>
using namespace pto;

extern "C" __global__ AICORE void square_rows(__gm__ float* out, __gm__ float* in)
{
    using GlobalData = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;
    using TileData = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64>;
    GlobalData src(in);
    GlobalData dst(out);
    TileData x;
    TileData y;
    TASSIGN<0x0>(x);
    TASSIGN<0x1000>(y);
    TLOAD(x, src);
    PtoSetWaitFlag<PIPE_MTE2, PIPE_V>();
    TMUL(y, x, x);
    PtoSetWaitFlag<PIPE_V, PIPE_MTE3>(EVENT_ID1, EVENT_ID1);
    TSTORE(dst, y);
}
// expect-no-findings
