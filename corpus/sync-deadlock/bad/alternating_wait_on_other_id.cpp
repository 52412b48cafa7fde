// sync-deadlock (C++): the wait takes the other slot's id (1 - p) while the set uses p.
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
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  for (int i = 0; i < n; ++i) {
    wait_flag(PIPE_V, PIPE_MTE2, (event_t)(1 - p));
    Row in(src + i * 64);
    if (p == 0) TLOAD(ping, in);
    else TLOAD(pong, in);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    if (p == 0) TADDS(ping, ping, 1);
    else TADDS(pong, pong, 1);
    // expect-error@+1 {{sync-event-pairing}}
    set_flag(PIPE_V, PIPE_MTE2, (event_t)p);
    p = 1 - p;
  }
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
}
