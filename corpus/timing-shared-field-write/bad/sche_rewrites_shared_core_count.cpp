// cann/pypto at 883e7dfb (device_sche.h, ReCalcDevArgsAicoreNum): every sche entry rewrites the
// core count on the shared DevAscendProgram, which ctrl and the other sche threads read. The
// function runs as sche because the sche entry point reaches it.
#include <cstdint>

struct DeviceArgs {
  uint32_t nrValidAic;
  uint32_t scheCpuNum;
};
struct DevAscendProgram {
  DeviceArgs devArgs;
};
struct DeviceKernelArgs {
  DevAscendProgram* cfgdata;
  uint32_t ctrlBlockNum;
};

static void ReCalcDevArgsAicoreNum(DeviceKernelArgs* kargs, DevAscendProgram* devProg) {
  if (kargs->ctrlBlockNum != 0 && kargs->ctrlBlockNum != devProg->devArgs.nrValidAic)
    devProg->devArgs.nrValidAic = kargs->ctrlBlockNum;  // expect-error {{timing-shared-field-write}}
}

extern "C" int DynTileFwkBackendKernelServer(void* targ) {
  auto* kargs = static_cast<DeviceKernelArgs*>(targ);
  ReCalcDevArgsAicoreNum(kargs, kargs->cfgdata);
  return 0;
}
