// ub-range (C++): a hand-written pto-isa kernel places its tiles with the template form
// TASSIGN<addr>(tile); the second tile at 32 KiB overlaps the first (64 KiB from 0) while both
// are live. Variant of corpus/ub-range/good/template_placement.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

__global__ AICORE void square_rows(__gm__ float* in, __gm__ float* out) {
  using TileData = Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256>;
  using GlobalData = GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>>;
  TileData src;
  TileData dst;
  TASSIGN<0x0>(src);
  // expect-error@+1 {{ub-range}}
  TASSIGN<0x8000>(dst);
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
