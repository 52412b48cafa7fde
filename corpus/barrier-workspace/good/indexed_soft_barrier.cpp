// An 8-lane kernel on the older indexed soft-barrier helper (the DeepSeek-V4 MoE fusion write-up §4.3 and §4.5, the
// generation before PTOAS #1064), written for this corpus: SYNCALL_SOFT_AIV_BARRIER(gm, ub,
// participants, index) with 8 int32 slot words per participant in GM (64 words, created zeroed and
// InOut per launch) and its UB scratch at 176 KiB: above the body's tiles, below pto-isa's temp
// region at 184 KiB, 64-byte aligned.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"

using namespace pto;

constexpr int32_t kLanes = 8;
constexpr int64_t kSoftSyncUbAddr = 176 * 1024;

AICORE void scale_rows(__gm__ float* src, __gm__ float* dst, int32_t row) {
  Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v1;
  TASSIGN(v1, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v2(src + row * 16384);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v3(dst + row * 16384);
  TLOAD(v1, v2);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMULS(v1, v1, 2.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v3, v1);
  pipe_barrier(PIPE_ALL);
}

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  const int32_t lane = static_cast<int32_t>(get_block_idx(args));
  __gm__ float* src = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[0])->buffer.addr);
  __gm__ float* dst = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[1])->buffer.addr);
  __gm__ int32_t* ws = reinterpret_cast<__gm__ int32_t*>(reinterpret_cast<__gm__ Tensor*>(args[2])->buffer.addr);
  Tile<TileType::Vec, int32_t, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> sync_tile;
  TASSIGN(sync_tile, (uint64_t) kSoftSyncUbAddr);
  scale_rows(src, dst, lane);
  SYNCALL_SOFT_AIV_BARRIER(ws, sync_tile.data(), kLanes, lane);
}

void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& src = orch_args.tensor(0).ref();
  const Tensor& dst = orch_args.tensor(1).ref();
  uint32_t ws_ci_shapes[1] = {64};
  TensorCreateInfo ws_ci(ws_ci_shapes, 1, DataType::INT32);
  ws_ci.set_initial_value(0);
  TaskOutputTensors ws_allocation = alloc_tensors(ws_ci);
  const Tensor& ws = ws_allocation.get_ref(0);

  // Task 1: kernel_entry
  L0TaskArgs args;
  args.add_input(src);
  args.add_output(dst);
  args.add_inout(ws);
  args.launch_spec.set_block_num(8);
  args.launch_spec.set_require_sync_start(true);
  args.set_allow_early_resolve(true);
  TaskOutputTensors args_output = rt_submit_aiv_task(1, args);
}
