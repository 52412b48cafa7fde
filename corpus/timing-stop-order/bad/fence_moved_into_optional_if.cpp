// The pypto-machine-code-review timing rules §3.2, broken: the fence after STOP moved into `if (NeedsFastPathRegClose())`. On the
// path where the fast-path close is not needed nothing fences STOP before the slots are cleared.
#include <cstdint>

constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;

class AicoreHal {
 public:
  void SetReadyQueue(uint32_t first, uint32_t last, uint32_t task);
  bool NeedsFastPathRegClose() const;
  void CloseFastPathReg(uint32_t first, uint32_t last);
  void ResetParallelDevTask(uint32_t first, uint32_t last);
  void ResetShakeBuf(uint32_t first, uint32_t last);
};

class AicoreManager {
 public:
  void BatchStopAllManagedCores() {
    hal_.SetReadyQueue(aicFirst_, aicLast_, AICORE_TASK_STOP + 1);
    hal_.SetReadyQueue(aivFirst_, aivLast_, AICORE_TASK_STOP + 1);
    if (hal_.NeedsFastPathRegClose()) {
      __sync_synchronize();
      hal_.CloseFastPathReg(aicFirst_, aicLast_);
      hal_.CloseFastPathReg(aivFirst_, aivLast_);
    }
    hal_.ResetParallelDevTask(aicFirst_, aicLast_);  // expect-error {{timing-stop-order}}
    hal_.ResetParallelDevTask(aivFirst_, aivLast_);
    __sync_synchronize();
    hal_.ResetShakeBuf(aicFirst_, aicLast_);
    hal_.ResetShakeBuf(aivFirst_, aivLast_);
  }

 private:
  AicoreHal hal_;
  uint32_t aicFirst_ = 0, aicLast_ = 24, aivFirst_ = 24, aivLast_ = 72;
};
