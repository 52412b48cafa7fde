// expect-no-findings
// sche hands a task to an AICore through the core's parallelDevTask slot: sche owns that
// protocol (the stop sequence hands the slot back, timing-stop-order), so its write is not a
// rewrite of someone else's shared state. The sche entry point reaches the function.
#include <cstdint>

struct ParallelDevTask {
  uint32_t version;
  uint64_t ptrElements[8];
};
struct KernelArgs {
  ParallelDevTask parallelDevTask;
};

static void SetParallelDevTaskCtxVersion(volatile KernelArgs* arg, uint32_t version) {
  arg->parallelDevTask.version = version;
}

extern "C" int DynTileFwkBackendKernelServer(void* targ) {
  SetParallelDevTaskCtxVersion(static_cast<KernelArgs*>(targ), 1);
  return 0;
}
