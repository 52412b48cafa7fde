// sync-deadlock (C++): the set uses the id a branch chose, the wait always EVENT_ID0: when
// `second` is true the set goes to id 1 and the wait blocks forever. The id after the if is
// `second ? 1 : 0`, so the witness is second != 0 (before, an id assigned in a branch was an
// unknown value and the wait only `could not be proved`).
// Variant of corpus/sync-deadlock/good/event_id_chosen_in_branch.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void pick_event(__gm__ int32_t* src, int second) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> t;
  TASSIGN(t, 0);
  event_t id = EVENT_ID0;
  if (second) id = EVENT_ID1;
  Row in(src);
  // expect-warning@+1 {{ub-range}}
  TLOAD(t, in);
  set_flag(PIPE_MTE2, PIPE_V, id);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
