// sync-exit-balance (C++): the kernel a host launch in the same file instantiates is modelled
// (before, the launch was a parse error and the kernel was lost): its event is still set at exit.
#include "pto/pto-inst.hpp"

template <int N>
__global__ AICORE void scale_kernel(__gm__ float* x) {
  // expect-error@+1 {{sync-exit-balance}}
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

void launch_scale(__gm__ float* x, void* stream) { scale_kernel<64><<<1, nullptr, stream>>>(x); }
