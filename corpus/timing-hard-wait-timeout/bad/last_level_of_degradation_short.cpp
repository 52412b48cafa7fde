// The pypto-machine-code-review timing rules §4 (rule 3), broken: the same-cluster wait degrades
// into the level loop (no finding there), but the level loop's own wait keeps a short timeout, and
// its last level fails hard. One finding, at that wait's timeout expression, listing the three
// values the log level chooses (50 us, 1 ms, 2 ms), not one finding per value.
#include <atomic>
#include <cstdint>

enum class ArchInfo { DAV_2201, DAV_3510 };

// Counter ticks; a 50 MHz system counter is assumed for these fixtures.
constexpr uint64_t TIMEOUT_A2A3_50US = 2500;
constexpr uint64_t TIMEOUT_A2A3_1MS = 50000;
constexpr uint64_t TIMEOUT_A2A3_2MS = 100000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
constexpr uint64_t TIMEOUT_A5_100MS = 10000000;
constexpr int DEVICE_MACHINE_OK = 0;
constexpr int DEVICE_MACHINE_ERROR = -1;
constexpr int ARBIT_FAILED = -1;

int DevLogLevel();
uint64_t GetCycles();
void DevLog(int level, const char* msg);
#define DEV_ERROR(msg) DevLog(3, msg)
#define DEV_IF_INFO if (DevLogLevel() <= 1)
#define DEV_IF_DEBUG if (DevLogLevel() <= 0)

inline uint64_t GetOsThrottleSafeWaitTimeout(ArchInfo archInfo) {
  return (archInfo == ArchInfo::DAV_3510) ? TIMEOUT_A5_100MS : TIMEOUT_A2A3_100MS;
}

inline int ReadyCpus(std::atomic<uint64_t>& mask) { return __builtin_popcountll(mask.load()); }

inline uint64_t ArbitTimeout() {
  uint64_t t = TIMEOUT_A2A3_50US;
  DEV_IF_INFO { t = TIMEOUT_A2A3_1MS; }
  DEV_IF_DEBUG { t = TIMEOUT_A2A3_2MS; }
  return t;
}

inline int WaitForSameCluster(int scheCpuNum, std::atomic<uint64_t>& mask) {
  uint64_t timeout = ArbitTimeout();
  uint64_t start = GetCycles();
  while (ReadyCpus(mask) < scheCpuNum) {
    if (GetCycles() - start > timeout) return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}

inline int WaitForCpus(int target, std::atomic<uint64_t>& mask) {
  uint64_t timeout = ArbitTimeout();  // expect-error {{timing-hard-wait-timeout}}
  uint64_t start = GetCycles();
  while (ReadyCpus(mask) < target) {
    if (GetCycles() - start > timeout) return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}

inline int ComputeLevel(int scheCpuNum, std::atomic<uint64_t>& mask) {
  if (WaitForSameCluster(scheCpuNum, mask) == DEVICE_MACHINE_OK) return scheCpuNum;
  for (int n = scheCpuNum; n >= 1; --n)
    if (WaitForCpus(n, mask) == DEVICE_MACHINE_OK) return n;
  return ARBIT_FAILED;
}

extern "C" int AllocScheThread(int scheCpuNum, std::atomic<uint64_t>& mask) {
  int level = ComputeLevel(scheCpuNum, mask);
  if (level == ARBIT_FAILED) {
    DEV_ERROR("no arbitration level could be met");
    return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}
