// Path conditions are compared as the code means them, not as it spells them: `1 == scheNum` is
// `scheNum == 1`, and `1 < scheNum` is `scheNum > 1`. The short timeout is chosen only when there
// are several sche, and only the single sche fails hard; the fatal branch after the degradation
// repeats a condition the path has already decided (contradictory: never taken).
// expect-no-findings
#include <cstdint>

constexpr uint64_t TIMEOUT_A2A3_100US = 5000;  // 50 MHz counter ticks
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;

uint64_t GetCycles();
void DevError(const char* what);
void DropCurrentScheThread();

uint64_t PickTimeout(uint32_t scheNum) {
  if (1 == scheNum) return TIMEOUT_A2A3_100MS;
  return TIMEOUT_A2A3_100US;
}

struct Ctrl {
  volatile uint32_t round;
};

int WaitCtrlRound(const Ctrl* ctrl, uint32_t round, uint32_t scheNum) {
  uint64_t timeout = PickTimeout(scheNum);
  uint64_t start = GetCycles();
  while (ctrl->round < round) {
    if (GetCycles() - start > timeout) {
      if (scheNum > 1) {
        DropCurrentScheThread();
        return 1;
      }
      if (1 < scheNum) {  // decided above: not on this path
        DevError("ctrl round did not start");
        return -1;
      }
      if (scheNum == 1) {
        DevError("ctrl round did not start");
        return -1;
      }
      return 1;
    }
  }
  return 0;
}
