// sync-core-pipe (C++): the fence after the store is pipe_barrier(PIPE_FIX) in code the vector
// core compiles (the file has a vector half, __DAV_C220_VEC__). PTOAS #1026: the kernel hung.
#include "pto/pto-inst.hpp"
using namespace pto;

__global__ AICORE void store_then_fence(__gm__ float* out) {
#if defined(__DAV_C220_VEC__)
  Tile<TileType::Vec, float, 1, 32> t;
  TASSIGN(t, 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>> g(out);
  TSTORE(g, t);
  // expect-error@+1 {{sync-core-pipe}}
  pipe_barrier(PIPE_FIX);
#endif
}
