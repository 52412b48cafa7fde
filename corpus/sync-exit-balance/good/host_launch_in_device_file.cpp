// expect-no-findings
// sync-exit-balance (C++): a device file with its host launcher (pto-isa's tests keep both in one
// file). The launch is host code, skipped; the kernel it instantiates is checked. Twin of
// corpus/sync-exit-balance/bad/host_launch_kernel_leaks_event.cpp.
#include "pto/pto-inst.hpp"

template <int N>
__global__ AICORE void scale_kernel(__gm__ float* x) {
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

void launch_scale(__gm__ float* x, void* stream) { scale_kernel<64><<<1, nullptr, stream>>>(x); }
