// expect-no-findings
// sync-pipe-race (C++): each TCI form released from its own pipe: the scalar form from PIPE_S,
// the tmp overload from PIPE_V. Twin of corpus/sync-pipe-race/bad/tci_tmp_overload_cpp.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void ci_both(__gm__ int32_t* out) {
  Tile<TileType::Vec, float, 1, 192> tmp;
  TASSIGN(tmp, 0);
  Tile<TileType::Vec, int32_t, 1, 32> seq;
  TASSIGN(seq, 768);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>> g(out);
  TCI(seq, 31);
  set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, seq);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  TCI(seq, 31, tmp);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, seq);
  pipe_barrier(PIPE_ALL);
}
