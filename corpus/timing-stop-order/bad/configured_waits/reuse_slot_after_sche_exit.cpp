// The pypto-machine-code-review timing rules §3.1: the ring slot is reused once every sche has exited, but the AICores that sche
// dispatched to may still be reading it (wait calls configured in .ptoverify.yaml beside this file).
#include <cstdint>

class RingSlots {
 public:
  void WaitAllScheExit(uint32_t slot);
  void WaitManagedAicoreExit(uint32_t slot);
  void ReuseRingSlot(uint32_t slot);
};

void RecycleSlot(RingSlots& ring, uint32_t slot) {
  ring.WaitAllScheExit(slot);
  ring.ReuseRingSlot(slot);  // expect-error {{timing-stop-order}}
}
