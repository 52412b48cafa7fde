// The fast-path close fenced before GOODBYE: every core's register is closed, one fence, then
// GOODBYE (a register write the tables do not name: the GOODBYE-named helper says it on return).
// expect-no-findings
#include <cstdint>

constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;
constexpr uint32_t REG_SPR_FAST_PATH_ENABLE = 0x18;
constexpr uint32_t REG_SPR_FAST_PATH_CLOSE = 0xF;
constexpr uint32_t REG_SPR_GOODBYE = 0x20;

void WriteReg32(uint32_t core, uint32_t offset, uint32_t value);

class AicoreHal {
 public:
  void SetReadyQueue(uint32_t first, uint32_t last, uint32_t task);
  void ResetParallelDevTask(uint32_t first, uint32_t last);
  void ResetShakeBuf(uint32_t first, uint32_t last) {
    for (uint32_t c = first; c < last; ++c) WriteReg32(c, REG_SPR_FAST_PATH_ENABLE, REG_SPR_FAST_PATH_CLOSE);
    __sync_synchronize();
    for (uint32_t c = first; c < last; ++c) WriteReg32(c, REG_SPR_GOODBYE, 1);
  }
};

class AicoreManager {
 public:
  void StopCores() {
    hal_.SetReadyQueue(first_, last_, AICORE_TASK_STOP + 1);
    __sync_synchronize();
    hal_.ResetParallelDevTask(first_, last_);
    __sync_synchronize();
    hal_.ResetShakeBuf(first_, last_);
  }

 private:
  AicoreHal hal_;
  uint32_t first_ = 0, last_ = 24;
};
