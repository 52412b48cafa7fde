// The pypto-machine-code-review timing rules §3.2: the reference stop order of an AicoreManager (written for this corpus in the
// seed's shape): STOP made visible -> unconditional fence -> clear the slots -> fence -> GOODBYE.
// The optional fast-path register close sits between, and the fence is not inside it.
// expect-no-findings
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
    // The MAINBASE write lands before the close, and STOP is visible before any slot is cleared.
    __sync_synchronize();
    if (hal_.NeedsFastPathRegClose()) {
      hal_.CloseFastPathReg(aicFirst_, aicLast_);
      hal_.CloseFastPathReg(aivFirst_, aivLast_);
    }
    hal_.ResetParallelDevTask(aicFirst_, aicLast_);
    hal_.ResetParallelDevTask(aivFirst_, aivLast_);
    __sync_synchronize();
    hal_.ResetShakeBuf(aicFirst_, aicLast_);
    hal_.ResetShakeBuf(aivFirst_, aivLast_);
  }

 private:
  AicoreHal hal_;
  uint32_t aicFirst_ = 0, aicLast_ = 24, aivFirst_ = 24, aivLast_ = 72;
};
