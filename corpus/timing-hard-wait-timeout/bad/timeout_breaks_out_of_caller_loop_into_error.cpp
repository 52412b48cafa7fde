// The pypto-machine-code-review timing rules §4 (rule 3), broken: the caller leaves its retry
// loop with `break` when the short wait times out, and the code after the loop fails hard. The
// statements after the `if` inside the loop (a successful `return`) are not on that path.
#include <atomic>
#include <cstdint>

constexpr uint64_t TIMEOUT_50US = 2500;  // counter ticks at 50 MHz
constexpr int DEVICE_MACHINE_OK = 0;
constexpr int DEVICE_MACHINE_ERROR = -1;

uint64_t GetCycles();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)

inline bool WaitReady(std::atomic<int>& ready) {
  uint64_t timeout = TIMEOUT_50US;  // expect-error {{timing-hard-wait-timeout}}
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
    return DEVICE_MACHINE_OK;
  }
  DEV_ERROR("sche: peers never became ready");
  return DEVICE_MACHINE_ERROR;
}
