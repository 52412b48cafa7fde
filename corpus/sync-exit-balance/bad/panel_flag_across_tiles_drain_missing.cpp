// sync-exit-balance (C++): corpus/sync-deadlock/good/panel_flag_across_tiles.cpp without the
// drain of L1 slot 1: with one tile its prime is never taken, with more the last odd tile
// releases it again, so the kernel always ends with it set.
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

AICORE inline void tiles(int first, int last, uint8_t& loadSlot, uint8_t& mathSlot) {
  for (int t = first; t < last; ++t) {
    for (uint32_t k = 0; k < 4; ++k) step(k, loadSlot, mathSlot);
  }
}

extern "C" __global__ AICORE void panels(__gm__ half* a, int n) {
  uint8_t loadSlot = 0, mathSlot = 0;
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  // expect-error@+1 {{sync-exit-balance}}
  set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  tiles(0, n, loadSlot, mathSlot);
  wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
}
