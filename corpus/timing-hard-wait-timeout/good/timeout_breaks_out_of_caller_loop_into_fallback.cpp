// The pypto-machine-code-review timing rules §4 (rule 3), kept: the caller leaves its loop with
// `break` when the short wait times out, and the code after the loop degrades (one sche runs
// alone) instead of failing. The path is followed past the loop, not into the `return` the
// loop body has after the `if`.
// expect-no-findings
#include <atomic>
#include <cstdint>

constexpr uint64_t TIMEOUT_50US = 2500;  // counter ticks at 50 MHz
constexpr int DEVICE_MACHINE_OK = 0;
constexpr int DEVICE_MACHINE_ERROR = -1;

uint64_t GetCycles();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)
void DegradeToSingleSche();

inline bool WaitReady(std::atomic<int>& ready) {
  uint64_t timeout = TIMEOUT_50US;
  uint64_t start = GetCycles();
  while (ready.load() == 0) {
    if (GetCycles() - start > timeout) return false;
  }
  return true;
}

extern "C" int ScheEntry(std::atomic<int>& ready, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    if (!WaitReady(ready)) {
      break;
    }
    if (round > 3) DEV_ERROR("sche: too many rounds");
    return DEVICE_MACHINE_OK;
  }
  DegradeToSingleSche();
  return DEVICE_MACHINE_OK;
}
