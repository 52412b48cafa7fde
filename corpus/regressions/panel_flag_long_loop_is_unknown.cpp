// The GEMM ping-pong of corpus/sync-deadlock/good/panel_flag_flipped_every_fourth_step.cpp over
// 24 K steps. A flag flipped every 4th step is only followed in a loop the trace unrolls whole
// (at most 8 iterations): a loop kept as iterations 0, 1 and the last ones would skip releases
// and report waits that do not block. So the L1 slot ids stay values ptoverify cannot compute,
// and what depends on them is unknown, never a false error. (The L0 flag, flipped every step,
// is followed and proved.)
#include "pto/pto-inst.hpp"
using namespace pto;

// One K step of a GEMM: every 4th step loads an L1 panel into slot loadSlot and flips it;
// every step moves a slice into L0 slot mathSlot and flips that.
AICORE inline void step(uint32_t k, uint8_t& loadSlot, uint8_t& mathSlot) {
  const uint32_t kMod = k % 4;
  if (kMod == 0) {
    // expect-unknown@+1 {{sync-deadlock}}
    wait_flag(PIPE_MTE1, PIPE_MTE2, (event_t)loadSlot);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    loadSlot = (loadSlot == 0) ? 1 : 0;
  }
  const uint32_t used = (loadSlot == 0) ? 1 : 0;
  wait_flag(PIPE_M, PIPE_MTE1, (event_t)mathSlot);
  if (kMod == 0) wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  // expect-unknown@+1 {{sync-event-pairing}}
  if ((k + 1) % 4 == 0) set_flag(PIPE_MTE1, PIPE_MTE2, (event_t)used);
  set_flag(PIPE_M, PIPE_MTE1, (event_t)mathSlot);
  mathSlot = (mathSlot == 0) ? 1 : 0;
}

// expect-unknown@+1 {{sync-exit-balance}}
extern "C" __global__ AICORE void panels(__gm__ half* a) {
  uint8_t loadSlot = 0, mathSlot = 0;
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  for (uint32_t k = 0; k < 24; ++k) step(k, loadSlot, mathSlot);
  // expect-unknown@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  // expect-unknown@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
}
