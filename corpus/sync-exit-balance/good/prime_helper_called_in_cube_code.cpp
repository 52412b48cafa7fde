// expect-no-findings
// sync-exit-balance (C++): a generated body whose cube half primes two events through a helper
// and drains them. In the vector view the caller is preprocessed away; the helper is still no
// kernel of its own (it would leave both events set), and the cube view models the caller.
#include "pto/pto-inst.hpp"

AICORE inline void prime_events() {
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
}

AICORE void cube_body(__gm__ float* out) {
#if defined(__DAV_C220_CUBE__)
  prime_events();
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
#endif
}
