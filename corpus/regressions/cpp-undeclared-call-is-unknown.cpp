// C++ front end: a call Clang cannot resolve (an undeclared helper) may hide a set_flag or a
// barrier. The front end counts it, and the rules whose facts it touches answer `unknown`
// instead of passing. Written for this corpus.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void sync_with_helper(__gm__ float* a) {
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  // expect-unknown@+2 {{sync-deadlock}} expect-unknown@+2 {{sync-exit-balance}} expect-unknown@+2 {{sync-event-pairing}}
  // expect-unknown@+1 {{sync-pipe-race}} expect-unknown@+1 {{sync-reserved-event}}
  vendor_wait_helper(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
