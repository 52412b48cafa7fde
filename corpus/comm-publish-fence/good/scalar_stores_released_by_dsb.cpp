// comm-publish-fence (C++): scalar stores complete in order on the S pipe, so writing their lines
// back (dcci CACHELINE_OUT) and then dsb(DSB_DDR) releases them; no pipe_barrier is needed (the
// qwen3 tiling kernel publishes its metadata this way). Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" AICORE void publish_words(__gm__ int32_t* out) {
  out[0] = 1;
  out[1] = 2;
  dcci(out, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
