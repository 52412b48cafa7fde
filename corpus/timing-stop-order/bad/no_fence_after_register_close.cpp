// Broken (the shape upstream's fast-path fix corrected): GOODBYE's helper closes each core's
// fast-path register and then says GOODBYE with no fence in between, so an AICore can see
// GOODBYE and leave before the close reaches it. The helper is walked into (it takes a close
// step); its GOODBYE is a register write the tables do not name, so the call itself counts as
// GOODBYE when it returns: the finding is at the call.
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
    for (uint32_t c = first; c < last; ++c) {
      WriteReg32(c, REG_SPR_FAST_PATH_ENABLE, REG_SPR_FAST_PATH_CLOSE);
      WriteReg32(c, REG_SPR_GOODBYE, 1);
    }
  }
};

class AicoreManager {
 public:
  void StopCores() {
    hal_.SetReadyQueue(first_, last_, AICORE_TASK_STOP + 1);
    __sync_synchronize();
    hal_.ResetParallelDevTask(first_, last_);
    __sync_synchronize();
    hal_.ResetShakeBuf(first_, last_);  // expect-error {{timing-stop-order}}
  }

 private:
  AicoreHal hal_;
  uint32_t first_ = 0, last_ = 24;
};
