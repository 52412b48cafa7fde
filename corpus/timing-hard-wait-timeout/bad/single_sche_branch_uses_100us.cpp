// The pypto-machine-code-review timing rules §4.3, broken: the single-sche branch of CalcWaitTimeout keeps a 100 us timeout, but
// when it is the only sche, WaitCtrlRoundReady fails hard on timeout: a ctrl parked by the
// device OS for ~50 ms makes this single sche report a false failure.
#include <cstdint>

enum class ArchInfo { DAV_2201, DAV_3510 };

// Counter ticks; a 50 MHz system counter is assumed for these fixtures.
#define TIMEOUT_A2A3_50US 2500ULL
constexpr uint64_t TIMEOUT_A2A3_100US = 5000;
constexpr uint64_t TIMEOUT_A2A3_2MS = 100000;
constexpr uint64_t TIMEOUT_A2A3_3MS = 150000;
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;
constexpr uint64_t TIMEOUT_A5_100MS = 10000000;
constexpr uint64_t TIMEOUT_A2A3_1SEC = 50000000;
constexpr uint64_t TIMEOUT_A2A3_10SEC = 500000000;
constexpr int DEVICE_MACHINE_OK = 0;
constexpr int DEVICE_MACHINE_ERROR = -1;
constexpr int DEVICE_MACHINE_DEGRADED = 1;

bool IsDeviceMode();
int DevLogLevel();
uint64_t GetCycles();
void DevLog(int level, const char* msg);
void DropCurrentScheThread();
#define DEV_ERROR(msg) DevLog(3, msg)
#define DEV_IF_INFO if (DevLogLevel() <= 1)
#define DEV_IF_DEBUG if (DevLogLevel() <= 0)

// Covers the ~950 ms run / ~50 ms park of one AICPU plus scheduling delay.
inline uint64_t GetOsThrottleSafeWaitTimeout(ArchInfo archInfo) {
  return (archInfo == ArchInfo::DAV_3510) ? TIMEOUT_A5_100MS : TIMEOUT_A2A3_100MS;
}

static inline uint64_t CalcWaitTimeout(ArchInfo archInfo, bool isOnlyOneSche = false, bool isWaitCtrlLevel = false) {
  if (isWaitCtrlLevel) {
    return IsDeviceMode() ? TIMEOUT_A2A3_1SEC : TIMEOUT_A2A3_10SEC;
  }
  if (!IsDeviceMode()) {
    return TIMEOUT_A2A3_1SEC;
  }
  uint64_t waitTimeout = TIMEOUT_A2A3_100US;
  DEV_IF_INFO { waitTimeout = TIMEOUT_A2A3_2MS; }
  DEV_IF_DEBUG { waitTimeout = TIMEOUT_A2A3_3MS; }
  // The only sche fails hard on timeout: cover the OS throttle. Several sche only drop a thread.
  if (isOnlyOneSche) {
    waitTimeout = TIMEOUT_A2A3_100US;  // (the value: the finding is at the timeout expression that chooses it)
  }
  return waitTimeout;
}

struct CtrlState {
  volatile uint32_t roundReady;
};

int WaitCtrlRoundReady(const CtrlState* ctrl, uint32_t round, ArchInfo archInfo, uint32_t arbitratedScheNum) {
  const uint64_t timeout = CalcWaitTimeout(archInfo, arbitratedScheNum == 1);  // expect-error {{timing-hard-wait-timeout}}
  const uint64_t start = GetCycles();
  while (ctrl->roundReady != round) {
    if (GetCycles() - start > timeout) {
      if (arbitratedScheNum == 1) {
        DEV_ERROR("ctrl did not start the round");
        return DEVICE_MACHINE_ERROR;
      }
      DropCurrentScheThread();
      return DEVICE_MACHINE_DEGRADED;
    }
  }
  return DEVICE_MACHINE_OK;
}

// A quick probe: on timeout it just reports "not yet" and the caller polls again later.
bool ProbeSlotFree(const volatile uint32_t* slotBusy) {
  const uint64_t start = GetCycles();
  while (*slotBusy != 0) {
    if (GetCycles() - start >= TIMEOUT_A2A3_50US) {
      return false;
    }
  }
  return true;
}
