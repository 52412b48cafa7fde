// sync-deadlock (C++): only slot 0's id is primed before the loop; the second iteration waits
// on id 1, which nothing has set (the model follows p = 1 - p, so it is not read as id 0 again).
// Variant of corpus/sync-deadlock/good/alternating_event_ids.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void double_buffered(__gm__ int32_t* src, int n) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> ping, pong;
  TASSIGN(ping, 0);
  TASSIGN(pong, 256);
  int p = 0;
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  for (int i = 0; i < n; ++i) {
    // expect-error@+1 {{sync-deadlock}}
    wait_flag(PIPE_V, PIPE_MTE2, (event_t)p);
    Row in(src + i * 64);
    if (p == 0) TLOAD(ping, in);
    else TLOAD(pong, in);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    if (p == 0) TADDS(ping, ping, 1);
    else TADDS(pong, pong, 1);
    set_flag(PIPE_V, PIPE_MTE2, (event_t)p);
    p = 1 - p;
  }
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
}
