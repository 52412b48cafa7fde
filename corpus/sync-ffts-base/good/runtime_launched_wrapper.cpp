// sync-ffts-base (C++): a kernel_entry(args) wrapper is launched by the PTO2 runtime, which sets
// the FFTS base before the kernel starts, so its cross-core flags need no set_ffts_base_addr
// (pypto-lib's extern kernels rely on this). Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" AICORE void kernel_entry(__gm__ int64_t* args) {
  pipe_barrier(PIPE_ALL);
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(5);
  AscendC::CrossCoreWaitFlag(5);
}
