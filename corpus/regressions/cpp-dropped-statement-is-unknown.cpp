// C++ front end: a statement Clang drops without a trace (here a template argument naming an
// enumerator the headers do not declare) may be any call: a set_flag, a barrier, a tile op. The
// kernel gets a gap at the first error in the function, and the rules whose facts it touches
// answer `unknown` instead of passing (pto-isa's TPUSH<..., TileSplitAxis::TILE_UP_DOWN_ODD>
// was dropped this way). Written for this corpus.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

enum class Stage { First, Second };
template <Stage S>
AICORE inline void stage_wait() {
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

AICORE void sync_with_dropped_call(__gm__ float* a) {
  // expect-unknown@+1 {{sync-exit-balance}}
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  // expect-unknown@+2 {{sync-deadlock}} expect-unknown@+2 {{sync-exit-balance}} expect-unknown@+2 {{sync-event-pairing}}
  // expect-unknown@+1 {{sync-pipe-race}} expect-unknown@+1 {{sync-reserved-event}}
  stage_wait<Stage::Third>();
}
