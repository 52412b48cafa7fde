// Broken: the fence between clearing the slots and GOODBYE is gone, and an early return skips the
// STOP fence when there is no vector core: both fences of the pypto-machine-code-review timing rules §3.2 are needed on every path.
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
  void StopCores(bool hasAiv) {
    hal_.SetReadyQueue(aicFirst_, aicLast_, AICORE_TASK_STOP + 1);
    if (hasAiv) {
      hal_.SetReadyQueue(aivFirst_, aivLast_, AICORE_TASK_STOP + 1);
      __sync_synchronize();
    }
    hal_.ResetParallelDevTask(aicFirst_, aicLast_);  // expect-error {{timing-stop-order}}
    hal_.ResetShakeBuf(aicFirst_, aicLast_);  // expect-error {{timing-stop-order}}
  }

 private:
  AicoreHal hal_;
  uint32_t aicFirst_ = 0, aicLast_ = 24, aivFirst_ = 24, aivLast_ = 72;
};
