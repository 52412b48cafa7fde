// sync-pipe-race (C++): a helper loads a tile, adds to it on the vector pipe and stores it on MTE3
// with no V -> MTE3 flag between: the store races with the add and with the load. The kernel calls
// the helper twice; each race is one defect in the helper's lines, reported once (not once per
// inlined instance).
#include "pto/pto-inst.hpp"
using namespace pto;
using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
AICORE inline void add_and_store(__gm__ float* in, __gm__ float* out, Tile<TileType::Vec, float, 1, 64>& t, float v) {
  G src(in), dst(out);
  TLOAD(t, src);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TADDS(t, t, v);
  // expect-error@+2 {{sync-pipe-race}}
  // expect-error@+1 {{sync-pipe-race}}
  TSTORE(dst, t);
}
AICORE void add_twice(__gm__ float* x, __gm__ float* y) {
  Tile<TileType::Vec, float, 1, 64> t;
  TASSIGN(t, 0);
  add_and_store(x, y, t, 1.0f);
  pipe_barrier(PIPE_ALL);
  add_and_store(y, x, t, 2.0f);
  pipe_barrier(PIPE_ALL);
}
