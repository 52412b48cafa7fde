// A timeout helper that tests its parameter through a macro (`IS_ONLY_ONE(nSche)`): the condition
// is read from the AST with the caller's argument in place of the parameter, so it is the
// caller's `scheNum == 1`, and the 100 us value (several sche) never meets the hard failure
// (the only sche), which waits the full 100 ms. Read as text, the macro's `nSche` stayed a name
// the caller never tests.
// expect-no-findings
#include <cstdint>
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
uint64_t GetCycles();
void DropThread();
#define IS_ONLY_ONE(n) ((n) == 1)
uint64_t PickTimeout(uint32_t nSche) { return IS_ONLY_ONE(nSche) ? TIMEOUT_A2A3_100MS : TIMEOUT_A2A3_100US; }
struct Ctl { volatile int ready; };
int Wait(const Ctl* c, uint32_t scheNum) {
  uint64_t start = GetCycles();
  uint64_t timeout = PickTimeout(scheNum);
  while (!c->ready) {
    if (GetCycles() - start > timeout) {
      if (1 == scheNum) return -1;
      DropThread();
      return 1;
    }
  }
  return 0;
}
