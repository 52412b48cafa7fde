// sync-exit-balance (C++): a user helper named like a tile instruction is still the user's
// function: its body is inlined and its set_flag counted. An intrinsic is one the prelude
// declares, never a name of the shape T[A-Z_]*.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE inline void TSTAGE_SET() {
  // expect-error@+1 {{sync-exit-balance}}
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
}

AICORE void stage(__gm__ float* out) {
  TSTAGE_SET();
}
