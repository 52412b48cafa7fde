// ub-range (C++): `half` is placed 64 floats into the one-row tile `row` and filled by
// TEXTRACT(half, row, 0, 64): the window is copied onto the very bytes it came from, so the two
// tiles are one buffer while `row` is still read (qwen3's generated RoPE body does this).
// Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void rope_halves(__gm__ float* in, __gm__ float* out) {
  Tile<TileType::Vec, float, 1, 128, BLayout::RowMajor, 1, 128, SLayout::NoneBox, 512, PadValue::Null> row;
  TASSIGN(row, (uint64_t) 0);
  Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null> half;
  TASSIGN(half, (uint64_t) 256);
  Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null> scaled;
  TASSIGN(scaled, (uint64_t) 512);
  GlobalTensor<float, Shape<1, 1, 1, 1, 128>, Stride<1, 1, 1, 128, 1>> gin(in);
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> gout(out);
  TLOAD(row, gin);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TEXTRACT(half, row, 0, 64);
  pipe_barrier(PIPE_V);
  TMULS(scaled, half, 2.0f);
  TADD(scaled, scaled, row);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(gout, scaled);
  pipe_barrier(PIPE_ALL);
}
