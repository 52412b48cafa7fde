// expect-no-findings
// sync-pipe-race (C++): the raw CCE copies of a hand-written kernel ordered with the pipes they
// run on: copy_gm_to_ubuf on PIPE_MTE2 then set_flag/wait_flag MTE2 -> V before TADD reads the
// buffer, and V -> MTE3 before copy_ubuf_to_gm (PIPE_MTE3) stores the result (the pipes of TLOAD
// and TSTORE_VEC in pto-isa's op-to-pipe table, include/pto/common/event.hpp, which these copies
// implement). Twin of corpus/sync-pipe-race/bad/raw_copy_read_on_vector_unordered.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void raw_copy_add(__gm__ float* src, __gm__ float* dst) {
  Tile<TileType::Vec, float, 16, 16> in;
  TASSIGN(in, 0x0);
  Tile<TileType::Vec, float, 16, 16> out;
  TASSIGN(out, 0x400);
  copy_gm_to_ubuf(in.data(), src, 0, 1, 32, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TADD(out, in, in);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(dst, out.data(), 0, 1, 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}
