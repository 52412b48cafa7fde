// sync-pipe-race (C++): as corpus/sync-pipe-race/good/double_buffered_gm_rows.cpp, but the rows
// are 32 elements apart while each access spans 64: the load of row i + 1 reads bytes the store
// of row i may still be writing.
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
    G g(x + i * 32);
    if (i % 2 == 0) {
      wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
      // expect-error@+1 {{sync-pipe-race}}
      TLOAD(t0, g);
      set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      TSTORE(g, t0);
      set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    } else {
      wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
      // expect-error@+1 {{sync-pipe-race}}
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
