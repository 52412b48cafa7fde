// sync-deadlock (C++): a helper flips the caller's ping-pong flag through a reference; both
// slots' ids are primed before and drained after, so each wait finds its set.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE inline void step(int& slot) {
  wait_flag(PIPE_V, PIPE_MTE2, (event_t)slot);
  set_flag(PIPE_V, PIPE_MTE2, (event_t)slot);
  slot = 1 - slot;
}

AICORE void two_steps(__gm__ int32_t* src) {
  int slot = 0;
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  step(slot);
  step(slot);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
}
