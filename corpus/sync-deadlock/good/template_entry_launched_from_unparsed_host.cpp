// sync-deadlock (C++): a template entry instantiated only by a host launch whose arguments name
// a host type the file does not declare (as pto-isa's communication tests pass a test context
// built on HCCL): the launch names the template arguments, so the entry is still a kernel and
// its set/wait pair is checked there.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

template <typename T, int N>
__global__ AICORE void scale(__gm__ T* x) {
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

void run(void* stream) {
  HostContext ctx;
  scale<float, 64><<<1, nullptr, stream>>>(ctx.deviceBuffer);
}
