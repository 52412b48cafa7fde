// A timeout helper whose parameter has another name than the caller's variable: the callee's
// `nSche == 1` is matched with the caller's `scheNum == 1`, so the 100 us value (several sche)
// never meets the hard failure (the only sche), which waits the full 100 ms.
// expect-no-findings
#include <cstdint>
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
uint64_t GetCycles();
void DropThread();
uint64_t PickTimeout(uint32_t nSche) {
  if (nSche == 1) return TIMEOUT_A2A3_100MS;
  return TIMEOUT_A2A3_100US;
}
struct Ctl { volatile int ready; };
int Wait(const Ctl* c, uint32_t scheNum) {
  uint64_t start = GetCycles();
  uint64_t timeout = PickTimeout(scheNum);
  while (!c->ready) {
    if (GetCycles() - start > timeout) {
      if (scheNum == 1) return -1;
      DropThread();
      return 1;
    }
  }
  return 0;
}
