// sync-deadlock (C++): the GEMM ping-pong of corpus/sync-deadlock/good/
// panel_flag_flipped_every_fourth_step.cpp over 24 K steps (pto-isa's gemm_performance runs 24).
// The L1 flag's values repeat every 8 steps, so the trace keeps the loop in whole periods of 8
// (steps 0-7 and 16-23, docs/solver.md): the skipped steps 8-15 are a full period, and every
// wait still finds its set.
// expect-no-findings
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

extern "C" __global__ AICORE void panels(__gm__ half* a) {
  uint8_t loadSlot = 0, mathSlot = 0;
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  for (uint32_t k = 0; k < 24; ++k) step(k, loadSlot, mathSlot);
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
}
