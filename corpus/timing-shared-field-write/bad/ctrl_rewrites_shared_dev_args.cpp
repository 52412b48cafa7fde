// The pypto-machine-code-review timing rules §2.1, broken: ctrl writes this round's core counts into the shared DevProg.devArgs,
// which the previous round's sche copies at its entry (early launch); the counts belong in
// DevStartArgs. It also resets the ring's inited flag outside the ring protocol.
#include <cstdint>

struct DevArgs {
  uint32_t nrValidAic;
  uint32_t scheCpuNum;
};

struct DevProg {
  DevArgs devArgs;
  uint64_t ctrlFlowCacheAnchor;
  bool runtimeDataRingBufferInited;
};

struct DevStartArgs {
  uint32_t nrValidAic{0};
  uint32_t scheCpuNum{0};
};

class DevCtrl {
 public:
  void InitDyn(DevProg* devProg, DevStartArgs* args, uint32_t roundAic, uint32_t roundSche) {
    devProg->devArgs.nrValidAic = roundAic;  // expect-error {{timing-shared-field-write}}
    DevArgs& shared = devProg->devArgs;
    shared.scheCpuNum = roundSche;  // expect-error {{timing-shared-field-write}}
    args->nrValidAic = roundAic;
    devProg->ctrlFlowCacheAnchor += 1;
  }

  void Rerun(DevProg* devProg) {
    devProg->runtimeDataRingBufferInited = false;  // expect-error {{timing-shared-field-write}}
  }
};

// ctrl's entry point (timing.roles: PyptoKernelCtrlServer*) runs both: the writes are ctrl's.
extern "C" int PyptoKernelCtrlServer(DevProg* devProg, DevStartArgs* args) {
  DevCtrl ctrl;
  ctrl.InitDyn(devProg, args, 24, 3);
  ctrl.Rerun(devProg);
  return 0;
}
