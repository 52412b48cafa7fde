// sync-deadlock (C++): a helper flips the caller's ping-pong flag through a reference (as
// pto-isa's gemm kernels pass mte1DBFlag); the second call waits on id 1, which only slot 0's
// prime set. Variant of corpus/sync-deadlock/good/flag_flipped_by_reference.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE inline void step(int& slot) {
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_V, PIPE_MTE2, (event_t)slot);
  set_flag(PIPE_V, PIPE_MTE2, (event_t)slot);
  slot = 1 - slot;
}

AICORE void two_steps(__gm__ int32_t* src) {
  int slot = 0;
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  step(slot);
  step(slot);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
}
