// sync-deadlock (C++): the wait takes the other buffer's id (1 - p) while the set uses p: in the
// second iteration the wait finds id 0 already consumed, and the loop's sets leave one id set
// twice. Variant of corpus/sync-deadlock/good/alternating_event_ids.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void double_buffered(__gm__ int32_t* src, int n) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> row;
  TASSIGN(row, 0);
  int p = 0;
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  for (int i = 0; i < n; ++i) {
    // expect-error@+1 {{sync-deadlock}}
    wait_flag(PIPE_V, PIPE_MTE2, (event_t)(1 - p));
    Row in(src + i * 64);
    // expect-error@+1 {{sync-pipe-race}}
    TLOAD(row, in);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    TADDS(row, row, 1);
    // expect-error@+1 {{sync-event-pairing}}
    set_flag(PIPE_V, PIPE_MTE2, (event_t)p);
    p = 1 - p;
  }
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
}
