// sync-deadlock (C++): a template entry instantiated only by a host launch whose arguments name
// a host type the file does not declare (as pto-isa's communication tests pass a test context
// built on HCCL): the launch names the template arguments, so the entry is still a kernel and
// its wait with no set is found. Variant of
// corpus/sync-deadlock/good/template_entry_launched_from_unparsed_host.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

template <typename T, int N>
__global__ AICORE void scale(__gm__ T* x) {
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

void run(void* stream) {
  HostContext ctx;
  scale<float, 64><<<1, nullptr, stream>>>(ctx.deviceBuffer);
}
