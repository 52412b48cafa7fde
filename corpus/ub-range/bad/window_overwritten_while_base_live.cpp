// ub-range (C++): the window tile `half` sits on bytes of `row`, and is then written with new
// values (TEXPANDS) while `row` is still read: a clobber, not an in-place copy.
// Variant of corpus/ub-range/good/in_place_extract_window.cpp.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void rope_halves(__gm__ float* in, __gm__ float* out) {
  Tile<TileType::Vec, float, 1, 128, BLayout::RowMajor, 1, 128, SLayout::NoneBox, 512, PadValue::Null> row;
  TASSIGN(row, (uint64_t) 0);
  Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null> half;
  // expect-error@+1 {{ub-range}}
  TASSIGN(half, (uint64_t) 256);
  Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null> scaled;
  TASSIGN(scaled, (uint64_t) 512);
  GlobalTensor<float, Shape<1, 1, 1, 1, 128>, Stride<1, 1, 1, 128, 1>> gin(in);
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> gout(out);
  TLOAD(row, gin);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TEXTRACT(half, row, 0, 64);
  TEXPANDS(half, 1.0f);
  pipe_barrier(PIPE_V);
  TMULS(scaled, half, 2.0f);
  TADD(scaled, scaled, row);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(gout, scaled);
  pipe_barrier(PIPE_ALL);
}
