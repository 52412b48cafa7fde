// sync-pipe-race (C++): each arm of the if/else orders the load before the store its own way
// (MTE2 -> V -> MTE3 around a vector op in one, MTE2 -> MTE3 in the other), so they are ordered
// on every path though no single flag pair runs on both (pto-isa moe_dispatch, phase B.1).
// expect-no-findings
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
    } else {
      set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    }
    Row out(dst + i * 64);
    TSTORE(out, row);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
}
