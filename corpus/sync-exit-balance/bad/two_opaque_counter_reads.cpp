// sync-exit-balance / sync-deadlock (C++): two calls of one opaque function are two values. The
// set runs when the first read is even, the wait when the second is: on hardware they can differ,
// leaving the event set (or a wait with nothing to consume). One symbol per call, not per spelling.
#include "pto/pto-inst.hpp"
using namespace pto;

int64_t read_counter();

AICORE void counter_guarded(__gm__ float* out) {
  if (read_counter() % 2 == 0) {
    // expect-error@+1 {{sync-exit-balance}}
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  }
  if (read_counter() % 2 == 0) {
    // expect-error@+1 {{sync-deadlock}}
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  }
}
