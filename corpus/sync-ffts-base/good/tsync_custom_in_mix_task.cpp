// sync-ffts-base (C++): the same TSync_Custom hand-off in a kernel that declares an AscendC MIX
// task type. The AscendC operator framework launches such a kernel's cube and vector halves
// together and sets the FFTS base for it (pto-isa's flash attention demo, fa_custom, exchanges
// these flags and never sets the base itself).
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
#include <pto/npu/a2a3/custom/TSync_Custom.hpp>
using namespace pto;

extern "C" __global__ AICORE void qk_producer(__gm__ float* out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  constexpr TSync_Custom<SyncOpType::TSTORE_C2GM, SyncOpType::TLOAD> handoff = {2};
  handoff.allocate();
  pipe_barrier(PIPE_ALL);
  handoff.record();
}
