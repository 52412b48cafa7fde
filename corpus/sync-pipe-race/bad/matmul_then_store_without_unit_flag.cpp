// sync-pipe-race (C++): the same matmul and store without their phases: no unit flag, and nothing
// else orders the fixpipe read of the accumulator after the cube write.
// Variant of corpus/sync-pipe-race/good/unit_flag_matmul_then_store.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void cube_chain(__gm__ float* a, __gm__ float* b, __gm__ float* c) {
  Tile<TileType::Mat, float, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512, PadValue::Null> l1a;
  TASSIGN(l1a, (uint64_t) 0);
  Tile<TileType::Mat, float, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512, PadValue::Null> l1b;
  TASSIGN(l1b, (uint64_t) 4096);
  Tile<TileType::Left, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::RowMajor, 512, PadValue::Null> left;
  TASSIGN(left, (uint64_t) 0);
  Tile<TileType::Right, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::ColMajor, 512, PadValue::Null> right;
  TASSIGN(right, (uint64_t) 0);
  Tile<TileType::Acc, float, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 1024, PadValue::Null> acc;
  TASSIGN(acc, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> ga(a), gb(b), gc(c);
  TLOAD(l1a, ga);
  TLOAD(l1b, gb);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  TMOV(left, l1a);
  TMOV(right, l1b);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  TMATMUL(acc, left, right);
  // expect-error@+1 {{sync-pipe-race}}
  TSTORE(gc, acc);
  pipe_barrier(PIPE_ALL);
}
