// The pypto-machine-code-review timing rules §4.2: sche spins until ctrl has set up the runtime-data ring. The first wait fails
// hard after 2 ms (a parked ctrl looks dead); the second takes its timeout from a parameter the
// rule cannot follow (Major: check it by hand); the third only degrades and keeps its short
// timeout; the fourth polls a local countdown, not another AICPU.
#include <cstdint>

#define TIMEOUT_A2A3_2MS 100000ULL
#define TIMEOUT_A2A3_100MS 5000000ULL
#define TIMEOUT_A2A3_100US 5000ULL
#define DEVICE_MACHINE_ERROR (-1)

struct DevProg {
  volatile bool runtimeDataRingBufferInited;
};

uint64_t GetCycles();
void DevLogError(const char* msg);
void RetryLater(uint32_t thread);

int WaitRingInited(const DevProg* devProg) {
  const uint64_t start = GetCycles();
  while (!devProg->runtimeDataRingBufferInited && GetCycles() - start < TIMEOUT_A2A3_2MS) {  // expect-error {{timing-hard-wait-timeout}}
  }
  if (!devProg->runtimeDataRingBufferInited) {
    DevLogError("runtime data ring never inited");
    return DEVICE_MACHINE_ERROR;
  }
  return 0;
}

int WaitRingInitedFor(const DevProg* devProg, uint64_t waitTimeout) {
  const uint64_t start = GetCycles();
  while (!devProg->runtimeDataRingBufferInited) {
    if (GetCycles() - start > waitTimeout) {  // expect-warning {{timing-hard-wait-timeout}}
      return DEVICE_MACHINE_ERROR;
    }
  }
  return 0;
}

bool TryWaitRingInited(const DevProg* devProg, uint32_t thread) {
  const uint64_t start = GetCycles();
  while (!devProg->runtimeDataRingBufferInited) {
    if (GetCycles() - start > TIMEOUT_A2A3_100US) {
      RetryLater(thread);
      return false;
    }
  }
  return true;
}

int SpinLocally(uint32_t spins) {
  const uint64_t start = GetCycles();
  uint32_t left = spins;
  while (left != 0) {
    --left;
    if (GetCycles() - start > TIMEOUT_A2A3_100US) {
      return DEVICE_MACHINE_ERROR;
    }
  }
  return 0;
}
