// expect-no-findings
// Counter polls for both: every sche and every AICore of the slot's round has exited before the
// slot is reused (waits configured in .ptoverify.yaml beside this file).
#include <atomic>
#include <cstdint>

struct SlotState {
  std::atomic<uint32_t> scheExited{0};
  std::atomic<uint32_t> aicoreExited{0};
};
void ReuseRingSlot(uint32_t slot);

void RecycleSlotByCounters(SlotState& s, uint32_t slot, uint32_t scheNum, uint32_t coreNum) {
  while (s.scheExited.load(std::memory_order_acquire) < scheNum) {
  }
  while (s.aicoreExited.load(std::memory_order_acquire) < coreNum) {
  }
  ReuseRingSlot(slot);
}
