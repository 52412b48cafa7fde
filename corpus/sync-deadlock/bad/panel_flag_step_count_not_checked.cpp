// sync-deadlock (C++): the GEMM ping-pong of corpus/sync-deadlock/good/
// panel_flag_flipped_every_fourth_step.cpp over a step count the kernel is given. It is correct
// only when `steps` is a multiple of 4: with 1 step slot 0 is loaded and never released (the
// drain's wait on EVENT_ID0 blocks), with 5 slot 1 is. Nothing in the kernel checks it (pto-isa's
// gemm_ar relies on its host passing a multiple; a --param-range or `solver: param-ranges` that
// states the host's value removes these findings).
#include "pto/pto-inst.hpp"
using namespace pto;

// One K step of a GEMM: every 4th step loads an L1 panel into slot loadSlot and flips it;
// every step moves a slice into L0 slot mathSlot and flips that.
AICORE inline void step(uint32_t k, uint8_t& loadSlot, uint8_t& mathSlot) {
  const uint32_t kMod = k % 4;
  if (kMod == 0) {
    wait_flag(PIPE_MTE1, PIPE_MTE2, (event_t)loadSlot);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    loadSlot = (loadSlot == 0) ? 1 : 0;
  }
  const uint32_t used = (loadSlot == 0) ? 1 : 0;
  wait_flag(PIPE_M, PIPE_MTE1, (event_t)mathSlot);
  if (kMod == 0) wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  if ((k + 1) % 4 == 0) set_flag(PIPE_MTE1, PIPE_MTE2, (event_t)used);
  set_flag(PIPE_M, PIPE_MTE1, (event_t)mathSlot);
  mathSlot = (mathSlot == 0) ? 1 : 0;
}

extern "C" __global__ AICORE void panels(__gm__ half* a, uint32_t steps) {
  uint8_t loadSlot = 0, mathSlot = 0;
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  for (uint32_t k = 0; k < steps; ++k) step(k, loadSlot, mathSlot);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
}
