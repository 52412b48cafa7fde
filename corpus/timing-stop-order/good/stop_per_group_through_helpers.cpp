// The same order spread over helpers of the same file and a loop over core groups, with a
// builtin fence: each step is found through the calls, and every path keeps the order.
// expect-no-findings
#include <cstdint>

constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;

struct CoreRange {
  uint32_t first, last;
};

class AicoreHal {
 public:
  void SetReadyQueue(uint32_t first, uint32_t last, uint32_t task);
  void ResetParallelDevTask(uint32_t first, uint32_t last);
  void ResetShakeBuf(uint32_t first, uint32_t last);
};

class GroupStopper {
 public:
  void StopAll(bool quiet) {
    for (uint32_t g = 0; g < groupCount_; ++g) SendStop(groups_[g]);
    FullFence();
    if (!quiet) ++stopRounds_;
    for (uint32_t g = 0; g < groupCount_; ++g) hal_.ResetParallelDevTask(groups_[g].first, groups_[g].last);
    FullFence();
    for (uint32_t g = 0; g < groupCount_; ++g) hal_.ResetShakeBuf(groups_[g].first, groups_[g].last);
  }

 private:
  void SendStop(const CoreRange& r) { hal_.SetReadyQueue(r.first, r.last, AICORE_TASK_STOP + 1); }
  static void FullFence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

  AicoreHal hal_;
  CoreRange groups_[4] = {};
  uint32_t groupCount_ = 0;
  uint32_t stopRounds_ = 0;
};
