// sync-event-pairing / sync-deadlock (C++): TPUT sets and waits MTE2 -> MTE3 EVENT_ID0 inside
// itself (PTOAS #706). The user's EVENT_ID0 on that pair is still set when the library sets it
// again, and the library's wait takes it: the user's wait hangs.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void held_across_put(__gm__ float* peer, __gm__ float* local) {
  Tile<TileType::Vec, float, 1, 64> stage;
  TASSIGN(stage, 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> dst(peer), src(local);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  // expect-error@+1 {{sync-event-pairing}}
  pto::comm::TPUT(dst, src, stage);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  pipe_barrier(PIPE_ALL);
}
