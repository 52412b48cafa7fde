// sync-pipe-race (C++): a hand-written kernel moves GM into UB with the raw CCE intrinsic
// copy_gm_to_ubuf, which runs on PIPE_MTE2 (the move TLOAD makes; pto-isa's op-to-pipe table,
// include/pto/common/event.hpp, puts TLOAD on PIPE_MTE2), then reads the buffer on PIPE_V with no
// set_flag/wait_flag between: TADD may read the tile before the copy has written it.
// Variant of corpus/sync-pipe-race/good/raw_copy_read_on_vector_ordered.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void raw_copy_add(__gm__ float* src, __gm__ float* dst) {
  Tile<TileType::Vec, float, 16, 16> in;
  TASSIGN(in, 0x0);
  Tile<TileType::Vec, float, 16, 16> out;
  TASSIGN(out, 0x400);
  copy_gm_to_ubuf(in.data(), src, 0, 1, 32, 0, 0);
  // expect-error@+1 {{sync-pipe-race}}
  TADD(out, in, in);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(dst, out.data(), 0, 1, 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}
