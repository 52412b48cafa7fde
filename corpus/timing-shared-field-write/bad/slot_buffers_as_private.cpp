// The pypto-machine-code-review timing rules §2.1 rows 4 and 5: the shared task slots (parallelDevTask, shake) are sche's and the
// AICores', not this round's private buffer; a CF-cache slot's rawTensorAddr is per slot, so its
// write is only a reminder (Minor) that the slot's previous AICores must have exited.
#include <cstdint>

struct ParallelDevTask {
  uint64_t ptrElements;
  uint32_t count;
};

struct KernelArgs {
  ParallelDevTask parallelDevTask[72];
  uint64_t shake[72];
};

struct CfCacheSlot {
  uint64_t rawTensorAddr;
};

void PatchRound(KernelArgs* kernelArgs, uint32_t core, uint64_t scratch) {
  kernelArgs->parallelDevTask[core].ptrElements = scratch;  // expect-error {{timing-shared-field-write}}
  ++kernelArgs->shake[core];  // expect-error {{timing-shared-field-write}}
}

void RestoreSlot(CfCacheSlot* slots, uint32_t slot, uint64_t addr) {
  slots[slot].rawTensorAddr = addr;  // expect-note {{timing-shared-field-write}}
}

// The slot protocol's own reset (allowed-in: ResetParallelDevTask) is not reported.
void ResetParallelDevTask(KernelArgs* kernelArgs, uint32_t first, uint32_t last) {
  for (uint32_t c = first; c < last; ++c) kernelArgs->parallelDevTask[c].count = 0;
}

// ctrl's entry point runs them: ctrl is not the slot protocol's owner (sche is).
extern "C" int PyptoKernelCtrlServer(KernelArgs* kernelArgs, CfCacheSlot* slots) {
  PatchRound(kernelArgs, 0, 0x1000);
  RestoreSlot(slots, 0, 0x2000);
  ResetParallelDevTask(kernelArgs, 0, 72);
  return 0;
}
