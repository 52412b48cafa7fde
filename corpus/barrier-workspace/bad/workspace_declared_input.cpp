// the DeepSeek-V4 MoE fusion write-up 常见错误 8: the workspace is passed as an input.
// Variant of corpus/barrier-participants/good/fused_three_phase.cpp (the DeepSeek-V4 MoE fusion write-up shape, written for this corpus).
#include <cstdint>
#include "pto/pto-inst.hpp"

using namespace pto;

namespace fused {
enum TensorArg : int32_t { kXMixed = 0, kXFlat, kPreVal, kFfnOut, kSyncWorkspace, kTensorArgCount };
enum ScalarArg : int32_t { kScale0 = kTensorArgCount, kNumTokens };
constexpr int32_t kAivLanes = 8;
constexpr int32_t kLineBytes = 64;
constexpr int32_t kCounterWords = pto::SYNCALL_SOFT_WORKSPACE_INT32;
constexpr int32_t kBarrier1Words = 0;
constexpr int32_t kBarrier2Words = kCounterWords;
static_assert(kCounterWords * 4 == kLineBytes, "one counter per cache line");

// --- generated bodies (PTOAS style) ---
AICORE void split_phase(__gm__ float* v1, __gm__ float* v2, int32_t v3, int32_t v4) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v5;
  TASSIGN(v5, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> v6(v1 + v3 * 64);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> v7(v2 + v3 * 64);
  TLOAD(v5, v6);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMULS(v5, v5, 0.5f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v7, v5);
  pipe_barrier(PIPE_ALL);
}

AICORE void mix_phase(__gm__ float* v1, __gm__ float* v2, __gm__ float* v3, int32_t v4, int32_t v5) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v6;
  TASSIGN(v6, (uint64_t) 0);
  Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v7;
  TASSIGN(v7, (uint64_t) 256);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> v8(v1 + (v4 / 4) * 64);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v9(v2 + v4 * 16384);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v10(v3 + v4 * 16384);
  TLOAD(v6, v8);
  TLOAD(v7, v9);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMUL(v7, v7, v6);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v10, v7);
  pipe_barrier(PIPE_ALL);
}

AICORE void ffn_phase(__gm__ float* v1, __gm__ float* v2, int32_t v3, int32_t v4) {
  Tile<TileType::Vec, float, 16, 256, BLayout::RowMajor, 16, 256, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v5;
  TASSIGN(v5, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 16, 256>, Stride<1, 1, 1, 256, 1>> v6(v1 + v3 * 4096);
  GlobalTensor<float, Shape<1, 1, 1, 16, 256>, Stride<1, 1, 1, 256, 1>> v7(v2 + v3 * 4096);
  TLOAD(v5, v6);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TRSQRT(v5, v5);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v7, v5);
  pipe_barrier(PIPE_ALL);
}

// --- the fused wrapper: ABI, loops, sync and call order only ---
template <typename T>
AICORE inline __gm__ T* tensor_data(__gm__ int64_t* args, int32_t index) {
  __gm__ Tensor* t = reinterpret_cast<__gm__ Tensor*>(args[index]);
  return reinterpret_cast<__gm__ T*>(t->buffer.addr) + t->start_offset;
}

AICORE inline void dcci_lines(__gm__ float* base, int32_t bytes, bool publish) {
  for (int32_t off = 0; off < bytes; off += kLineBytes) {
    if (publish) {
      dcci((__gm__ uint8_t*) base + off, SINGLE_CACHE_LINE, CACHELINE_OUT);
    } else {
      dcci((__gm__ uint8_t*) base + off, SINGLE_CACHE_LINE);
    }
  }
}

AICORE inline void soft_sync(__gm__ int32_t* workspace_base, int32_t offset_words, int32_t participants) {
  GlobalTensor<int32_t, Shape<>, Stride<>> workspace(workspace_base + offset_words);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(workspace, participants);
}

AICORE void fused_body(__gm__ float* x_mixed, __gm__ float* x_flat, __gm__ float* pre_val, __gm__ float* ffn_out,
                       __gm__ int32_t* sync_workspace, float scale0, int32_t num_tokens, int32_t lane) {
  const int32_t split_work = (num_tokens + 7) / 8;
  const int32_t mix_work = split_work * 4;
  const int32_t ffn_work = num_tokens;
  for (int32_t logical_block = lane; logical_block < split_work; logical_block += kAivLanes) {
    split_phase(x_flat, pre_val, logical_block, split_work);
  }
  pipe_barrier(PIPE_ALL);
  for (int32_t logical_block = lane; logical_block < split_work; logical_block += kAivLanes) {
    dcci_lines(pre_val + logical_block * 64, 256, true);
  }
  dsb(DSB_DDR);
  soft_sync(sync_workspace, kBarrier1Words, kAivLanes);
  for (int32_t logical_block = lane; logical_block < mix_work; logical_block += kAivLanes) {
    dcci_lines(pre_val + (logical_block / 4) * 64, 256, false);
  }
  dsb(DSB_DDR);
  for (int32_t logical_block = lane; logical_block < mix_work; logical_block += kAivLanes) {
    mix_phase(pre_val, x_flat, x_mixed, logical_block, mix_work);
  }
  pipe_barrier(PIPE_ALL);
  for (int32_t logical_block = lane; logical_block < mix_work; logical_block += kAivLanes) {
    dcci_lines(x_mixed + logical_block * 16384, 65536, true);
  }
  dsb(DSB_DDR);
  soft_sync(sync_workspace, kBarrier2Words, kAivLanes);
  for (int32_t logical_block = lane; logical_block < ffn_work; logical_block += kAivLanes) {
    dcci_lines(x_mixed + logical_block * 4096, 16384, false);
  }
  dsb(DSB_DDR);
  for (int32_t logical_block = lane; logical_block < ffn_work; logical_block += kAivLanes) {
    ffn_phase(x_mixed, ffn_out, logical_block, ffn_work);
  }
}
}  // namespace fused

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  const int32_t lane = static_cast<int32_t>(get_block_idx(args));
  __gm__ float* x_mixed = fused::tensor_data<float>(args, fused::kXMixed);
  __gm__ float* x_flat = fused::tensor_data<float>(args, fused::kXFlat);
  __gm__ float* pre_val = fused::tensor_data<float>(args, fused::kPreVal);
  __gm__ float* ffn_out = fused::tensor_data<float>(args, fused::kFfnOut);
  __gm__ int32_t* sync_workspace = fused::tensor_data<int32_t>(args, fused::kSyncWorkspace);
  const float scale0 = static_cast<float>(args[fused::kScale0]);
  const int32_t num_tokens = static_cast<int32_t>(args[fused::kNumTokens]);
  fused::fused_body(x_mixed, x_flat, pre_val, ffn_out, sync_workspace, scale0, num_tokens, lane);
}

// --- orchestration (PTO2 runtime API): one synchronously started 8-lane wave with its own zeroed workspace ---
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
  const Tensor& x_mixed = orch_args.tensor(0).ref();
  const Tensor& x_flat = orch_args.tensor(1).ref();
  const Tensor& pre_val = orch_args.tensor(2).ref();
  const Tensor& ffn_out = orch_args.tensor(3).ref();
  uint64_t scale0 = orch_args.scalar(0);
  uint64_t num_tokens = orch_args.scalar(1);
  uint32_t sync_workspace_ci_shapes[1] = {32};
  TensorCreateInfo sync_workspace_ci(sync_workspace_ci_shapes, 1, DataType::INT32);
  sync_workspace_ci.set_initial_value(0);
  TaskOutputTensors sync_workspace_allocation = alloc_tensors(sync_workspace_ci);
  const Tensor& sync_workspace = sync_workspace_allocation.get_ref(0);

  // Task 1: kernel_entry
  L0TaskArgs fused_args;
  fused_args.add_output(x_mixed);
  fused_args.add_input(x_flat);
  fused_args.add_output(pre_val);
  fused_args.add_output(ffn_out);
  // expect-error@+1 {{barrier-workspace}}
  fused_args.add_input(sync_workspace);
  fused_args.add_scalar(scale0);
  fused_args.add_scalar(num_tokens);
  fused_args.launch_spec.set_block_num(8);
  fused_args.launch_spec.set_require_sync_start(true);
  fused_args.set_allow_early_resolve(true);
  TaskOutputTensors fused_args_output = rt_submit_aiv_task(1, fused_args);
}
