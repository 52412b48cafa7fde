// sync-pipe-race (C++): one arm orders the load before the store through the vector op, the
// other arm orders nothing: on its path the store reads the row while the load may still write it.
// Variant of corpus/sync-pipe-race/good/branch_arms_each_ordered.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void restore_rows(__gm__ int32_t* src, __gm__ int32_t* dst, int rows, int me) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> row;
  TASSIGN(row, 0);
  for (int i = 0; i < rows; ++i) {
    Row in(src + i * 64);
    TLOAD(row, in);
    if (i != me) {
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      TADDS(row, row, -1);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    }
    Row out(dst + i * 64);
    // expect-error@+1 {{sync-pipe-race}}
    TSTORE(out, row);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
}
