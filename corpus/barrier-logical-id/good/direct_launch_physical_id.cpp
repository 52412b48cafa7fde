// A PTOAS kernel launched directly (no kernel_entry(args), no all-core barrier), written for this
// corpus: each core picks its rows by the bare get_block_idx(). With no runtime remapping and no
// barrier slot to index, the physical id is what it needs, and barrier-logical-id stays quiet.
// The same rows copied behind a runtime wrapper take the logical get_block_idx(args) instead.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE inline void copy_rows(__gm__ float* v1, __gm__ float* v2, int64_t v3) {
  Tile<TileType::Vec, float, 16, 128, BLayout::RowMajor, 16, 128, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v4;
  TASSIGN(v4, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 128, 1>> v5(v1 + v3 * 2048);
  GlobalTensor<float, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 128, 1>> v6(v2 + v3 * 2048);
  TLOAD(v4, v5);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(v6, v4);
}

extern "C" __global__ AICORE void row_copy(__gm__ float* v1, __gm__ float* v2) {
  const int64_t v3 = get_block_idx();
  copy_rows(v1, v2, v3);
}

extern "C" __global__ AICORE void kernel_entry(__gm__ int64_t* args) {
  const int64_t lane = get_block_idx(args);
  __gm__ float* src = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[0])->buffer.addr);
  __gm__ float* dst = reinterpret_cast<__gm__ float*>(reinterpret_cast<__gm__ Tensor*>(args[1])->buffer.addr);
  copy_rows(src, dst, lane);
}
