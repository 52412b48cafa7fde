// expect-no-findings
// sync-exit-balance (C++): the counter is read once and both guards test that one value, so the
// set and the wait run together. Twin of corpus/sync-exit-balance/bad/two_opaque_counter_reads.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

int64_t read_counter();

AICORE void counter_guarded(__gm__ float* out) {
  const int64_t c = read_counter();
  if (c % 2 == 0) {
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  }
  if (c % 2 == 0) {
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  }
}
