// The pypto-machine-code-review timing rules §2.2 (written for this corpus): ctrl puts this round's core counts into the round's
// own DevStartArgs, keeps only the full capacity in the shared DevProg.devArgs, and writes the
// DevProg fields only ctrl reads (ctrlFlowCacheAnchor, memBudget).
// expect-no-findings
#include <cstdint>

struct DevArgs {
  uint32_t nrValidAic;
  uint32_t scheCpuNum;
};

struct DevProg {
  DevArgs devArgs;
  uint64_t ctrlFlowCacheAnchor;
  uint64_t memBudget;
  bool runtimeDataRingBufferInited;
};

struct DevStartArgsBase {
  uint64_t round;
};

struct DevStartArgs : DevStartArgsBase {
  uint32_t nrValidAic{0};  // per round, ring-slot local
  uint32_t scheCpuNum{0};
};

class DevCtrl {
 public:
  void InitDyn(DevProg* devProg, DevStartArgs* args, uint32_t roundAic, uint32_t roundSche) {
    args->nrValidAic = roundAic;
    args->scheCpuNum = roundSche;
    args->round += 1;
    devProg->ctrlFlowCacheAnchor = args->round;
    devProg->memBudget -= roundAic * 4096;
  }

  uint32_t FullCapacity(const DevProg* devProg) const { return devProg->devArgs.nrValidAic; }
};

// The ring's own protocol sets the inited flag (allowed-in: *RuntimeDataRingBuffer*).
void InitRuntimeDataRingBuffer(DevProg* devProg) {
  __sync_synchronize();
  devProg->runtimeDataRingBufferInited = true;
}

// ctrl's entry point runs them.
extern "C" int PyptoKernelCtrlServer(DevProg* devProg, DevStartArgs* args) {
  DevCtrl ctrl;
  ctrl.InitDyn(devProg, args, 24, 3);
  InitRuntimeDataRingBuffer(devProg);
  return static_cast<int>(ctrl.FullCapacity(devProg));
}
