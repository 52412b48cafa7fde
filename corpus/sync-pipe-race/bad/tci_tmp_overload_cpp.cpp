// sync-pipe-race (C++): TCI(dst, start, tmp) is the vector overload, so S -> MTE3 does not order
// the store after it (PTOAS #1532). Twin: corpus/sync-pipe-race/good/tci_forms_cpp.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void ci_descending(__gm__ int32_t* out) {
  Tile<TileType::Vec, float, 1, 192> tmp;
  TASSIGN(tmp, 0);
  Tile<TileType::Vec, int32_t, 1, 32> seq;
  TASSIGN(seq, 768);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>> g(out);
  TCI(seq, 31, tmp);
  set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  // expect-error@+1 {{sync-pipe-race}}
  TSTORE(g, seq);
  pipe_barrier(PIPE_ALL);
}
