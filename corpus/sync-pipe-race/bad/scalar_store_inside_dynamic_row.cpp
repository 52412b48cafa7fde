// sync-pipe-race (C++): the kernel of good/scalar_store_beside_dynamic_row.cpp, but the scalar
// unit writes the row's last element while the DMA store of the row (MTE3) may still run: the
// two writes meet, and nothing orders PIPE_S after MTE3.
#include "pto/pto-inst.hpp"
using namespace pto;
extern "C" __global__ AICORE void row_then_count(__gm__ int32_t* ws, int32_t n) {
  int32_t cols = (n + 7) & ~7;
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
  // expect-error@+1 {{sync-pipe-race}}
  ws[cols - 1] = n;
  pipe_barrier(PIPE_ALL);
}
