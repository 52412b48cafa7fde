// sync-core-pipe (C++): a mixed kernel whose cube half waits for PIPE_V, a pipe the cube core
// does not have. The file is modelled in both core views; only the cube view compiles this half.
#include "pto/pto-inst.hpp"

__global__ AICORE void mixed_halves(__gm__ float* out) {
#if defined(__DAV_C220_CUBE__)
  // expect-error@+1 {{sync-core-pipe}}
  pipe_barrier(PIPE_V);
#endif
#if defined(__DAV_C220_VEC__)
  pipe_barrier(PIPE_V);
#endif
}
