// expect-no-findings
// barrier-workspace: a debug entry whose stop-phase switch repeats the same barriers in each arm
// (the fused kernel's debug/entry.cpp shape). Barrier 1 at word 0 appears in three arms, but
// the arms are mutually exclusive: no execution counts twice on one counter.
#include <cstdint>
#include "pto/pto-inst.hpp"

using namespace pto;

constexpr int32_t kAivLanes = 8;
constexpr int32_t kBarrier1Words = 0;
constexpr int32_t kBarrier2Words = pto::SYNCALL_SOFT_WORKSPACE_INT32;

AICORE inline void soft_sync(__gm__ int32_t* workspace_base, int32_t offset_words) {
  GlobalTensor<int32_t, Shape<>, Stride<>> workspace(workspace_base + offset_words);
  pipe_barrier(PIPE_ALL);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(workspace, kAivLanes);
  pipe_barrier(PIPE_ALL);
}

template <typename T>
AICORE inline __gm__ T* tensor_data(__gm__ int64_t* args, int32_t index) {
  __gm__ Tensor* t = reinterpret_cast<__gm__ Tensor*>(args[index]);
  return reinterpret_cast<__gm__ T*>(t->buffer.addr) + t->start_offset;
}

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  __gm__ int32_t* ws = tensor_data<int32_t>(args, 0);
  const int32_t stop = static_cast<int32_t>(args[1]);
  switch (stop) {
    case 0:
      soft_sync(ws, kBarrier1Words);
      break;
    case 1:
      soft_sync(ws, kBarrier1Words);
      soft_sync(ws, kBarrier2Words);
      break;
    default:
      soft_sync(ws, kBarrier1Words);
      soft_sync(ws, kBarrier2Words);
      break;
  }
}

// The launch: one synchronously started 8-lane wave, with its two counters' workspace created
// zeroed and passed InOut, and the stop phase as a scalar.
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  uint64_t stop = orch_args.scalar(0);
  uint32_t ws_ci_shapes[1] = {2 * pto::SYNCALL_SOFT_WORKSPACE_INT32};
  TensorCreateInfo ws_ci(ws_ci_shapes, 1, DataType::INT32);
  ws_ci.set_initial_value(0);
  TaskOutputTensors ws_allocation = alloc_tensors(ws_ci);
  const Tensor& ws = ws_allocation.get_ref(0);

  // Task 1: kernel_entry
  L0TaskArgs args;
  args.add_inout(ws);
  args.add_scalar(stop);
  args.launch_spec.set_block_num(8);
  args.launch_spec.set_require_sync_start(true);
  args.set_allow_early_resolve(true);
  TaskOutputTensors args_output = rt_submit_aiv_task(1, args);
}
