// PTOAS-style generated body (reference §3.3 TASSIGN lowering), written for this corpus: tiles at
// constant addresses through const int64_t aliases, each inside UB and none overlapping another
// while both are live (the second pair reuses the first pair's bytes after they are dead).
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void rms_body(__gm__ float* v1, __gm__ float* v2, int32_t v3) {
  const int64_t v4 = 0;
  const int64_t v5 = 65536;
  uint64_t v6 = (uint64_t) v5;
  Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v7;
  TASSIGN(v7, (uint64_t) v4);
  Tile<TileType::Vec, float, 64, 256, BLayout::RowMajor, 64, 256, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v8;
  TASSIGN(v8, v6);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v9(v1 + v3 * 16384);
  GlobalTensor<float, Shape<1, 1, 1, 64, 256>, Stride<1, 1, 1, 256, 1>> v10(v2 + v3 * 16384);
  TLOAD(v7, v9);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMUL(v8, v7, v7);
  TRSQRT(v8, v8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(v10, v8);
  pipe_barrier(PIPE_ALL);
}
