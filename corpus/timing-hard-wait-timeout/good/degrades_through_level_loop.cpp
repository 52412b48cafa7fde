// The pypto-machine-code-review timing rules §4 (rule 3), degradation through arbitration levels:
// a sche first waits (50 us) for every sche CPU in one cluster; on timeout it does not fail but
// goes on to the level loop, which waits for fewer and fewer CPUs. Only the last level fails hard,
// and its wait covers the OS throttle window. A short timeout that degrades is fine.
// expect-no-findings
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

inline int WaitForSameCluster(int scheCpuNum, std::atomic<uint64_t>& mask) {
  uint64_t timeout = TIMEOUT_A2A3_50US;
  uint64_t start = GetCycles();
  while (ReadyCpus(mask) < scheCpuNum) {
    if (GetCycles() - start > timeout) return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}

inline int WaitForCpus(ArchInfo archInfo, int target, std::atomic<uint64_t>& mask) {
  uint64_t timeout = GetOsThrottleSafeWaitTimeout(archInfo);
  uint64_t start = GetCycles();
  while (ReadyCpus(mask) < target) {
    if (GetCycles() - start > timeout) return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}

inline int ComputeLevel(ArchInfo archInfo, int scheCpuNum, std::atomic<uint64_t>& mask) {
  if (WaitForSameCluster(scheCpuNum, mask) == DEVICE_MACHINE_OK) return scheCpuNum;
  for (int n = scheCpuNum; n >= 1; --n)
    if (WaitForCpus(archInfo, n, mask) == DEVICE_MACHINE_OK) return n;
  return ARBIT_FAILED;
}

extern "C" int AllocScheThread(ArchInfo archInfo, int scheCpuNum, std::atomic<uint64_t>& mask) {
  int level = ComputeLevel(archInfo, scheCpuNum, mask);
  if (level == ARBIT_FAILED) {
    DEV_ERROR("no arbitration level could be met");
    return DEVICE_MACHINE_ERROR;
  }
  return DEVICE_MACHINE_OK;
}
