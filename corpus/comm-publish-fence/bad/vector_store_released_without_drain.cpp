// comm-publish-fence (C++): a TSTORE runs on MTE3 and may still be in flight, so a dsb right
// after the line's writeback is no release before the notify: pipe_barrier(PIPE_ALL) must come
// first. Variant of corpus/comm-publish-fence/good/scalar_stores_released_by_dsb.cpp.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" AICORE void publish_tile(__gm__ float* out, __gm__ int32_t* flag) {
  Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, 16, SLayout::NoneBox, 512, PadValue::Null> t;
  TASSIGN(t, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 16>, Stride<1, 1, 1, 16, 1>> g(out);
  TEXPANDS(t, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  // expect-error@+1 {{comm-publish-fence}}
  TSTORE(g, t);
  dcci(out, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  pto::comm::Signal ready(flag);
  pto::comm::TNOTIFY(ready, 1, pto::comm::NotifyOp::Set);
}
