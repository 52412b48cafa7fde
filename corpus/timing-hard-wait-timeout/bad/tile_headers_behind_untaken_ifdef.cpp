// Control code that names the device toolchain's headers only under a define its build never
// sets (as cann/pypto's aicore_print_base.h includes the tile headers for __TILE_FWK_AICORE__):
// the preprocessor, not the #include lines, says it is control code, so its hard wait is judged.
#ifdef __TILE_FWK_AICORE__
#include "pto/pto-inst.hpp"
#endif
#include <cstdint>

constexpr uint64_t TIMEOUT_A2A3_2MS = 100000;  // 50 MHz counter ticks
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;

uint64_t GetCycles();
void DevError(const char* what);

struct Peer {
  volatile uint32_t round;
};

int WaitPeerRound(const Peer* peer, uint32_t round) {
  const uint64_t start = GetCycles();
  while (peer->round < round) {
    if (GetCycles() - start > TIMEOUT_A2A3_2MS) {  // expect-error {{timing-hard-wait-timeout}}
      DevError("peer round did not start");
      return -1;
    }
  }
  return 0;
}
