// Roles follow functions handed on by name, as cann/pypto's control flow takes a table of runtime
// callbacks: the sche entry hands `PublishSlot` to its dispatcher, so sche runs it, and sche owns
// the slot protocol. The ctrl entry that sche hands to the thread manager stays ctrl's (an
// extern "C" entry runs as itself), so ctrl's own counter write is not taken for sche's.
// expect-no-findings
#include <cstdint>

struct ParallelDevTask {
  uint64_t ptrElements;
  uint32_t count;
};
struct KernelArgs {
  ParallelDevTask parallelDevTask[72];
};
struct DevProg {
  uint64_t ctrlFlowCacheAnchor;
};

using SlotCallback = void (*)(KernelArgs*, uint32_t);
void Dispatch(const SlotCallback* table, int n, KernelArgs* args);
using Entry = int (*)(void*);
void RunCtrlThread(Entry entry, void* arg);

void PublishSlot(KernelArgs* args, uint32_t core) {
  args->parallelDevTask[core].ptrElements = 0x1000;
  args->parallelDevTask[core].count = 1;
}

extern "C" int PyptoKernelCtrlServer(void* arg) {
  static_cast<DevProg*>(arg)->ctrlFlowCacheAnchor += 1;  // ctrl-only field
  return 0;
}

extern "C" int DynTileFwkBackendKernelServer(void* arg) {
  RunCtrlThread(PyptoKernelCtrlServer, arg);
  const SlotCallback table[] = {PublishSlot};
  Dispatch(table, 1, static_cast<KernelArgs*>(arg));
  return 0;
}
