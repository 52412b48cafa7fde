// sync-pipe-race (C++, pto-isa's real headers): PtoSetWaitFlag<PIPE_MTE2, PIPE_V>() orders the
// load before the multiply; the one between the multiply and the store is missing, so MTE3
// reads the product PIPE_V may still be writing. Variant of
// corpus-pto-isa/sync-pipe-race/good/set_wait_helper.cpp.
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
    // expect-error@+1 {{sync-pipe-race}}
    TSTORE(dst, y);
}
