// The pypto-machine-code-review timing rules §4 (rule 3), broken: the timeout branch jumps to the
// function's error label, which fails hard. The path is followed through the `goto`.
#include <atomic>
#include <cstdint>

constexpr uint64_t TIMEOUT_50US = 2500;  // counter ticks at 50 MHz
constexpr int DEVICE_MACHINE_OK = 0;
constexpr int DEVICE_MACHINE_ERROR = -1;

uint64_t GetCycles();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)

extern "C" int ScheEntry(std::atomic<int>& ready) {
  uint64_t timeout = TIMEOUT_50US;  // expect-error {{timing-hard-wait-timeout}}
  uint64_t start = GetCycles();
  while (ready.load() == 0) {
    if (GetCycles() - start > timeout) goto fail;
  }
  return DEVICE_MACHINE_OK;
fail:
  DEV_ERROR("sche: peers never became ready");
  return DEVICE_MACHINE_ERROR;
}
