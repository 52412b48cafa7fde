// The wait's function has a parameter `n`, and the timeout is chosen on the field `cfg.n`. When
// the caller's conditions are matched with the wait's, only the parameter `n` becomes the
// caller's argument; the field keeps its name. So `cfg.n == 1` in the wait is the caller's
// `cfg.n == 1`, and the 100 us value (several sche) never meets the hard failure (the only
// sche), which waits the full 100 ms.
// expect-no-findings
#include <cstdint>
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
uint64_t GetCycles();
void DropThread();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)
struct Cfg { uint32_t n; };
struct Ctl { volatile int ready; };
uint64_t PickTimeout(const Cfg& cfg) { return cfg.n == 1 ? TIMEOUT_A2A3_100MS : TIMEOUT_A2A3_100US; }
int Wait(const Ctl* c, uint32_t n, const Cfg& cfg) {
  uint64_t start = GetCycles();
  uint64_t timeout = PickTimeout(cfg);
  while (c->ready < static_cast<int>(n)) {
    if (GetCycles() - start > timeout) return -1;
  }
  return 0;
}
extern "C" int ScheEntry(const Ctl* c, const Cfg& cfg, uint32_t peers) {
  if (Wait(c, peers, cfg) != 0) {
    if (cfg.n == 1) {
      DEV_ERROR("the only sche lost its peers");
      return -1;
    }
    DropThread();
    return 1;
  }
  return 0;
}
