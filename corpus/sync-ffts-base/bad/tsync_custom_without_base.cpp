// sync-ffts-base (C++): pto-isa's TSync_Custom hands a buffer from the cube core to the vector
// core with FFTS flags (record() sets flag_id from FIX, allocate() waits on flag_id + 1), and the
// kernel, launched directly, never sets the FFTS base address.
// Variant of corpus/sync-ffts-base/good/tsync_custom_in_mix_task.cpp.
#include <cstdint>
#include "pto/pto-inst.hpp"
#include <pto/npu/a2a3/custom/TSync_Custom.hpp>
using namespace pto;

extern "C" __global__ AICORE void qk_producer(__gm__ float* out) {
  constexpr TSync_Custom<SyncOpType::TSTORE_C2GM, SyncOpType::TLOAD> handoff = {2};
  // expect-error@+1 {{sync-ffts-base}}
  handoff.allocate();
  pipe_barrier(PIPE_ALL);
  handoff.record();
}
