// sync-deadlock (C++): a double-buffered loop whose event id alternates with the iteration
// (`p = 1 - p`, as pto-isa's add demo writes `(pingpong == 0) ? 1 : 0`): each wait on id p finds
// the set of the iteration before last, or the prime before the loop, and guards the buffer of
// slot p.
// expect-no-findings
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
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
}
