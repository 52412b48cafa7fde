// sync-pipe-race (C++): an in-place copy double-buffered over rows of one GM buffer: the store of
// row i (MTE3) and the load of row i + 1 (MTE2) are not ordered, and need not be: a GM operand
// spans the bytes its GlobalTensor's shape and strides give, from where its pointer points, and
// rows i and i + 1 do not meet.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;
AICORE void copy_rows_in_place(__gm__ float* x, int n) {
  using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, float, 1, 64> t0, t1;
  TASSIGN(t0, 0);
  TASSIGN(t1, 256);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
  for (int i = 0; i < n; ++i) {
    G g(x + i * 64);
    if (i % 2 == 0) {
      wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
      TLOAD(t0, g);
      set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      TSTORE(g, t0);
      set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    } else {
      wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
      TLOAD(t1, g);
      set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
      wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
      TSTORE(g, t1);
      set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    }
  }
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
}
