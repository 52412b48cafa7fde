// sync-pipe-race (C++), in the shape of pto-isa's MoE dispatch workspace: a row of `cols` ints is
// stored by DMA (MTE3) at the start of a workspace, and the scalar unit writes a count just past
// it, with no sync between. They do not race: a scalar access covers its element, and a
// GlobalTensor built from run-time Shape / Stride objects spans (cols - 1) * 1 + 1 ints.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;
extern "C" __global__ AICORE void row_then_count(__gm__ int32_t* ws, int32_t n) {
  int32_t cols = (n + 7) & ~7;  // padded to 8, as the MoE kernel pads its rows
  using RowShape = Shape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
  using RowStride = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
  RowShape shape(1, 1, 1, 1, cols);
  RowStride stride(cols, cols, cols, cols, 1);
  GlobalTensor<int32_t, RowShape, RowStride> row(ws, shape, stride);
  Tile<TileType::Vec, int32_t, 1, 64> t;
  TASSIGN(t, 0);
  TEXPANDS(t, 0);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(row, t);
  ws[cols] = n;
  pipe_barrier(PIPE_ALL);
}
