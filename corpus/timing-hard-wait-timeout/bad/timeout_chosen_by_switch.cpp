// A timeout picked by a switch over the log level: the DEBUG case keeps 100 us, and the wait
// that uses it fails hard. The finding names the case (the switch's parameter reads as the
// caller's argument).
#include <cstdint>
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
constexpr uint64_t TIMEOUT_A2A3_1SEC = 50000000;
enum class Level { Info, Debug, Quiet };
uint64_t GetCycles();
void LOG_ERROR(const char*);
uint64_t Pick(Level l) {
  switch (l) {
    case Level::Info:
      return TIMEOUT_A2A3_1SEC;
    case Level::Debug:
      return TIMEOUT_A2A3_100US;  // (the value: the finding is at the timeout expression that chooses it)
    default:
      break;
  }
  return TIMEOUT_A2A3_100MS;
}
struct Peer { volatile int up; };
int Wait(const Peer* p, Level l) {
  uint64_t start = GetCycles();
  while (!p->up) {
    if (GetCycles() - start > Pick(l)) { LOG_ERROR("peer"); return -1; }  // expect-error {{timing-hard-wait-timeout}}
  }
  return 0;
}
