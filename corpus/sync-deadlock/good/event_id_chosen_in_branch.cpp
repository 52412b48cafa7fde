// sync-deadlock (C++): the event id is chosen by a branch (`if (second) id = EVENT_ID1;`) and the
// set and the wait both use it: after the if, id is `second ? 1 : 0` on every path, so the wait
// always finds its set (the arms are merged, not read as an unknown id).
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void pick_event(__gm__ int32_t* src, int second) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> t;
  TASSIGN(t, 0);
  event_t id = EVENT_ID0;
  if (second) id = EVENT_ID1;
  Row in(src);
  TLOAD(t, in);
  set_flag(PIPE_MTE2, PIPE_V, id);
  wait_flag(PIPE_MTE2, PIPE_V, id);
  TADDS(t, t, 1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(in, t);
}
