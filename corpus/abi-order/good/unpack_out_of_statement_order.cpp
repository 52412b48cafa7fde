// A kernel_entry wrapper, written for this corpus, that reads args[] in a different statement order
// than the index order (the output tensor first, the scalar in between) but forwards tensors
// args[0..2] and then the scalar args[3] in the order the callee declares them, matching
// kTensorArgCount. abi-order checks the forwarded order and the slots, not the statement order.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

enum TensorArg : int32_t { kQuery = 0, kKey, kOut, kTensorArgCount };
enum ScalarArg : int32_t { kRows = kTensorArgCount };

AICORE void attend(__gm__ float* query, __gm__ float* key, __gm__ float* out, int32_t rows) {
  Tile<TileType::Vec, float, 8, 128, BLayout::RowMajor, 8, 128, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v1;
  TASSIGN(v1, (uint64_t) 0);
  for (int32_t r = 0; r < rows; r += 8) {
    GlobalTensor<float, Shape<1, 1, 1, 8, 128>, Stride<1, 1, 1, 128, 1>> v2(query + r * 128);
    GlobalTensor<float, Shape<1, 1, 1, 8, 128>, Stride<1, 1, 1, 128, 1>> v3(out + r * 128);
    TLOAD(v1, v2);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(v3, v1);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
  (void) key;
}

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  __gm__ float* out = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[kOut])->buffer.addr);
  const int32_t rows = static_cast<int32_t>(args[kRows]);
  __gm__ float* query = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[kQuery])->buffer.addr);
  __gm__ float* key = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[kKey])->buffer.addr);
  attend(query, key, out, rows);
}
