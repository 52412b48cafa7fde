// The same mistake with the waits written as counter polls (configured in .ptoverify.yaml beside
// this file): the slot is reused once the sche counter is complete, the AICores' is not awaited.
#include <atomic>
#include <cstdint>

struct SlotState {
  std::atomic<uint32_t> scheExited{0};
  std::atomic<uint32_t> aicoreExited{0};
};
void ReuseRingSlot(uint32_t slot);

void RecycleSlotByCounters(SlotState& s, uint32_t slot, uint32_t scheNum) {
  while (s.scheExited.load(std::memory_order_acquire) < scheNum) {
  }
  ReuseRingSlot(slot);  // expect-error {{timing-stop-order}}
}
