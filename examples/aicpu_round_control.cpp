// Device-side control code (AICPU ctrl / sche), the pypto-machine-code-review timing rules: three review mistakes in one file.
// `ptoverify check examples/aicpu_round_control.cpp --format markdown` shows them as PR comments.
#include <cstdint>

constexpr uint32_t AICORE_TASK_STOP = 0x7FFFFFF0u;
constexpr uint64_t TIMEOUT_A2A3_500US = 25000;  // 50 MHz counter ticks
constexpr uint64_t TIMEOUT_A2A3_100MS = 5000000;

struct DevArgs {
  uint32_t nrValidAic;
};
struct DevProg {
  DevArgs devArgs;
  volatile uint32_t ctrlRound;
};

class CoreHal {
 public:
  void SetReadyQueue(uint32_t first, uint32_t last, uint32_t task);
  void ResetParallelDevTask(uint32_t first, uint32_t last);
  void ResetShakeBuf(uint32_t first, uint32_t last);
  bool NeedsFastPathRegClose() const;
};

uint64_t GetCycles();
void ReportFatal(const char* what);

// ctrl: this round's core count goes into the shared devArgs that sche copies.
void StartRound(DevProg* prog, uint32_t roundAic) {
  prog->devArgs.nrValidAic = roundAic;  // expect-error {{timing-shared-field-write}}
}

// ctrl: the STOP fence only runs when the fast-path registers are closed.
void StopManagedCores(CoreHal& hal, uint32_t cores) {
  hal.SetReadyQueue(0, cores, AICORE_TASK_STOP + 1);
  if (hal.NeedsFastPathRegClose()) __sync_synchronize();
  hal.ResetParallelDevTask(0, cores);  // expect-error {{timing-stop-order}}
  __sync_synchronize();
  hal.ResetShakeBuf(0, cores);
}

// sche: the only sche gives up after 500 us and fails hard, inside ctrl's throttle window.
int WaitCtrlRound(const DevProg* prog, uint32_t round) {
  const uint64_t start = GetCycles();
  while (prog->ctrlRound < round) {
    if (GetCycles() - start > TIMEOUT_A2A3_500US) {  // expect-error {{timing-hard-wait-timeout}}
      ReportFatal("ctrl round did not start");
      return -1;
    }
  }
  return 0;
}

// The entry points (timing.roles) that say which role runs what.
extern "C" int PyptoKernelCtrlServer(DevProg* prog, CoreHal* hal) {
  StartRound(prog, 24);
  StopManagedCores(*hal, 72);
  return 0;
}
extern "C" int DynTileFwkBackendKernelServer(const DevProg* prog) { return WaitCtrlRound(prog, 1); }
