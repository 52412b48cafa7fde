// sync-deadlock (C++): a PTOAS-generated pass body header given alone: its `__aicore__` function
// is a kernel of its own, and its set/wait pair is checked there.
// expect-no-findings
#pragma once
#include "pto/pto-inst.hpp"
using namespace pto;

__aicore__ inline void norm_pass(__gm__ float* x) {
  using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, float, 1, 64> t;
  TASSIGN(t, 0);
  G g(x);
  TLOAD(t, g);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMULS(t, t, 2.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, t);
}
