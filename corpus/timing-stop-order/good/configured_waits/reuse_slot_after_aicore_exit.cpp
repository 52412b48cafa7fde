// The same reuse after the AICores of the slot have exited too (the pypto-machine-code-review timing rules §3.1).
// expect-no-findings
#include <cstdint>

class RingSlots {
 public:
  void WaitAllScheExit(uint32_t slot);
  void WaitManagedAicoreExit(uint32_t slot);
  void ReuseRingSlot(uint32_t slot);
};

void RecycleSlot(RingSlots& ring, uint32_t slot) {
  ring.WaitAllScheExit(slot);
  ring.WaitManagedAicoreExit(slot);
  ring.ReuseRingSlot(slot);
}
