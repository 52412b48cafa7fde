// expect-no-findings
// sync-core-pipe (C++): the same store drained on MTE3, a pipe the vector core has.
#include "pto/pto-inst.hpp"
using namespace pto;

__global__ AICORE void store_then_drain(__gm__ float* out) {
#if defined(__DAV_C220_VEC__)
  Tile<TileType::Vec, float, 1, 32> t;
  TASSIGN(t, 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>> g(out);
  TSTORE(g, t);
  pipe_barrier(PIPE_MTE3);
  pipe_barrier(PIPE_ALL);
#endif
}
