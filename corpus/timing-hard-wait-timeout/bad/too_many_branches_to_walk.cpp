// The timeout helper branches on eight independent conditions before it returns: 256 paths,
// more than a wait's walk takes (64 branches). The path with the short value is among those not
// walked, so the rule cannot show the wait safe: it says unknown, never nothing.
#include <cstdint>

constexpr uint64_t TIMEOUT_A2A3_50US = 2500;  // counter ticks at 50 MHz
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;

uint64_t GetCycles();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)
bool Flag(int k);

inline uint64_t PickTimeout() {
  uint64_t t = TIMEOUT_A2A3_100MS;
  if (Flag(0)) {
  } else {
    t = TIMEOUT_A2A3_50US;
  }
  if (Flag(1)) DevLog(1, "1");
  if (Flag(2)) DevLog(1, "2");
  if (Flag(3)) DevLog(1, "3");
  if (Flag(4)) DevLog(1, "4");
  if (Flag(5)) DevLog(1, "5");
  if (Flag(6)) DevLog(1, "6");
  if (Flag(7)) DevLog(1, "7");
  return t;
}

struct Peer { volatile int ready; };

extern "C" int ScheEntry(const Peer* peer) {
  uint64_t timeout = PickTimeout();
  uint64_t start = GetCycles();
  while (!peer->ready) {  // expect-unknown {{timing-hard-wait-timeout}}
    if (GetCycles() - start > timeout) {
      DEV_ERROR("peer never ready");
      return -1;
    }
  }
  return 0;
}
