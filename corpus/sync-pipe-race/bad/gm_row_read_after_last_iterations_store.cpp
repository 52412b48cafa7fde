// sync-pipe-race (C++): each iteration loads row i of x (MTE2) and stores row i + 1 (MTE3). Within
// one iteration the rows differ; the load of iteration i + 1 reads the row the store of iteration
// i may still be writing, and nothing orders MTE3 before the next MTE2. The two accesses meet only
// across iterations: each side of the question has loop counters of its own.
// Twin: corpus/sync-pipe-race/good/gm_row_read_after_store_waited.cpp.
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
  for (int i = 0; i < n; ++i) {
    G row(x + i * 64), next(x + (i + 1) * 64);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    // expect-error@+1 {{sync-pipe-race}}
    TLOAD(seen, row);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    TADD(acc, acc, seen);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    TSTORE(next, fill);
  }
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  G total(sum);
  TSTORE(total, acc);
  pipe_barrier(PIPE_ALL);
}
