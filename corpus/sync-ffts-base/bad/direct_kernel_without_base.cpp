// sync-ffts-base (C++): a kernel launched directly (no kernel_entry wrapper, so no runtime sets
// the FFTS base for it) uses cross-core flags without set_ffts_base_addr.
// Variant of corpus/sync-ffts-base/good/runtime_launched_wrapper.cpp.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" AICORE void cube_vec_handoff(__gm__ float* out) {
  pipe_barrier(PIPE_ALL);
  // expect-error@+1 {{sync-ffts-base}}
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(5);
  AscendC::CrossCoreWaitFlag(5);
}
