// C++ front end: a compile-time stop variant (`if constexpr (Stop) return;` in a template, as the
// DeepSeek-V4 debug entry selects) ends the inlined body there. The code after it (a wait with
// no set, which would deadlock) is dead in the stop variant and must not be modelled.
// Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

template <bool Stop>
static AICORE void body(__gm__ float* out) {
  pipe_barrier(PIPE_ALL);
  if constexpr (Stop) {
    return;
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
}

static AICORE void tail(bool publish) {
  if (publish) {
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID2);
  }
}

extern "C" AICORE void kernel_entry(__gm__ int64_t* args) {
  __gm__ Tensor* t = reinterpret_cast<__gm__ Tensor*>(args[0]);
  body<true>(reinterpret_cast<__gm__ float*>(t->buffer.addr));
  tail(false);
}
