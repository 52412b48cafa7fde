// A hand-written pto-isa kernel places its tiles with the template form TASSIGN<addr>(tile):
// the two tiles lie in disjoint bytes of UB (64 KiB each, the second from 64 KiB).
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

__global__ AICORE void square_rows(__gm__ float* in, __gm__ float* out) {
  using TileData = Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256>;
  using GlobalData = GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>>;
  TileData src;
  TileData dst;
  TASSIGN<0x0>(src);
  TASSIGN<0x10000>(dst);
  GlobalData inGlobal(in);
  GlobalData outGlobal(out);
  TLOAD(src, inGlobal);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMUL(dst, src, src);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(outGlobal, dst);
}
