// The pypto-machine-code-review timing rules §3.2, broken: the slots are cleared before STOP is written, while the AICores may
// still be reading ptrElements of the task in their slot.
#include <cstdint>

constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;

class AicoreHal {
 public:
  void SetReadyQueue(uint32_t first, uint32_t last, uint32_t task);
  void ResetParallelDevTask(uint32_t first, uint32_t last);
  void ResetShakeBuf(uint32_t first, uint32_t last);
};

class AicoreManager {
 public:
  void BatchStopAllManagedCores() {
    hal_.ResetParallelDevTask(aicFirst_, aicLast_);  // expect-error {{timing-stop-order}}
    hal_.ResetParallelDevTask(aivFirst_, aivLast_);
    hal_.SetReadyQueue(aicFirst_, aicLast_, AICORE_TASK_STOP + 1);
    hal_.SetReadyQueue(aivFirst_, aivLast_, AICORE_TASK_STOP + 1);
    __sync_synchronize();
    hal_.ResetShakeBuf(aicFirst_, aicLast_);
    hal_.ResetShakeBuf(aivFirst_, aivLast_);
  }

 private:
  AicoreHal hal_;
  uint32_t aicFirst_ = 0, aicLast_ = 24, aivFirst_ = 24, aivLast_ = 72;
};
