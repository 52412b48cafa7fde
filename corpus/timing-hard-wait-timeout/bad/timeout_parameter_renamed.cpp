// The helper of good/timeout_parameter_renamed.cpp with the only-sche branch shortened to
// 100 us: the hard failure of the caller (`scheNum == 1`) now meets a 100 us timeout.
#include <cstdint>
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
uint64_t GetCycles();
void DropThread();
uint64_t PickTimeout(uint32_t nSche) {
  if (nSche == 1) return TIMEOUT_A2A3_100US;  // (the value: the finding is at the timeout expression that chooses it)
  return TIMEOUT_A2A3_100US;
}
struct Ctl { volatile int ready; };
int Wait(const Ctl* c, uint32_t scheNum) {
  uint64_t start = GetCycles();
  uint64_t timeout = PickTimeout(scheNum);  // expect-error {{timing-hard-wait-timeout}}
  while (!c->ready) {
    if (GetCycles() - start > timeout) {
      if (scheNum == 1) return -1;
      DropThread();
      return 1;
    }
  }
  return 0;
}
