// A PTOAS-style vector kernel (reference §3.3 lowering, written for this corpus): MTE2->V, V->MTE3 and
// MTE3->MTE2 events pair in every iteration.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" __global__ AICORE void vadd_kernel(__gm__ float* v1, __gm__ float* v2, __gm__ float* v3, int32_t v4) {
#if defined(__DAV_VEC__)
  using T = float;
  const int64_t v5 = 0;
  const int64_t v6 = 4096;
  const int64_t v7 = 8192;
  Tile<TileType::Vec, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v8;
  TASSIGN(v8, (uint64_t) v5);
  Tile<TileType::Vec, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v9;
  TASSIGN(v9, (uint64_t) v6);
  Tile<TileType::Vec, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v10;
  TASSIGN(v10, (uint64_t) v7);
  for (int32_t v11 = 0; v11 < v4; v11 += 1) {
    GlobalTensor<float, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> v12(v1 + v11 * 1024);
    GlobalTensor<float, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> v13(v2 + v11 * 1024);
    GlobalTensor<float, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> v14(v3 + v11 * 1024);
    TLOAD(v8, v12);
    TLOAD(v9, v13);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(v10, v8, v9);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(v14, v10);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
  }
#endif
}
