// sync-pipe-race (C++): as corpus/sync-pipe-race/bad/gm_row_read_after_last_iterations_store.cpp,
// but each iteration waits for the previous store (MTE3 -> MTE2) before it loads the row that
// store wrote.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;
AICORE void shift_rows(__gm__ float* x, __gm__ float* sum, int n) {
  using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, float, 1, 64> fill, seen, acc;
  TASSIGN(fill, 0);
  TASSIGN(seen, 256);
  TASSIGN(acc, 512);
  TEXPANDS(fill, 1.0f);
  TEXPANDS(acc, 0.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  for (int i = 0; i < n; ++i) {
    G row(x + i * 64), next(x + (i + 1) * 64);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    TLOAD(seen, row);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    TADD(acc, acc, seen);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    TSTORE(next, fill);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  G total(sum);
  TSTORE(total, acc);
  pipe_barrier(PIPE_ALL);
}
