// A PyPTO kernel_entry wrapper in the shape of pypto_backend's generator (reference §3), written
// for this corpus: tensors args[0..2], the FP32 scalar at args[3], a dynamic dim from a tensor's
// shape, the L2 cache offset read once at entry (PyPTO's GM cache access policy), then the SPMD block id and count.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
#include "tensor.h"
using namespace pto;

AICORE void split_pre_post(__gm__ float* v1, __gm__ float* v2, __gm__ float* v3, float v4, int64_t v5,
                           uint64_t __pypto_l2_cache_offset, int32_t __pypto_spmd_block_idx,
                           int32_t __pypto_spmd_block_num) {
  Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, 8, 64, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v6;
  TASSIGN(v6, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 64>, Stride<1, 1, 1, 64, 1>> v7(v1 + __pypto_spmd_block_idx * 512);
  GlobalTensor<float, Shape<1, 1, 1, 8, 64>, Stride<1, 1, 1, 64, 1>> v8(v3 + __pypto_spmd_block_idx * 512);
  TLOAD(v6, v7);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMULS(v6, v6, v4);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v8, v6);
}

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  set_atomic_none();
  __gm__ Tensor* x_tensor = reinterpret_cast<__gm__ Tensor*>(args[0]);
  __gm__ Tensor* w_tensor = reinterpret_cast<__gm__ Tensor*>(args[1]);
  __gm__ Tensor* out_tensor = reinterpret_cast<__gm__ Tensor*>(args[2]);
  __gm__ float* x = reinterpret_cast<__gm__ float*>(x_tensor->buffer.addr) + x_tensor->start_offset;
  __gm__ float* w = reinterpret_cast<__gm__ float*>(w_tensor->buffer.addr) + w_tensor->start_offset;
  __gm__ float* out = reinterpret_cast<__gm__ float*>(out_tensor->buffer.addr) + out_tensor->start_offset;
  union { uint64_t bits; float value; } scale;
  scale.bits = static_cast<uint64_t>(args[3]);
  const int64_t rows = static_cast<int64_t>(x_tensor->shapes[0]);
  const uint64_t l2_offset = get_l2_cache_offset(args);
  const int32_t block_idx = static_cast<int32_t>(get_block_idx(args));
  const int32_t block_num = static_cast<int32_t>(get_block_num(args));
  split_pre_post(x, w, out, scale.value, rows, l2_offset, block_idx, block_num);
}
