// The TPUT + TNOTIFY kernel with the invalidate and fence after the notify instead of before it
// (PyPTO's InsertCommFence pass: the fence goes between the data and the signal; PTOAS #711 / pypto #1561).
#include "pto/pto-inst.hpp"
using namespace pto;

extern "C" __global__ AICORE void ring_put(__gm__ float* v1, __gm__ float* v2, __gm__ int32_t* v3, int32_t v4) {
  Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> v5;
  TASSIGN(v5, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>> v6(v1);
  GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>> v7(v2);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>> v8(v3);
  // expect-error@+1 {{comm-publish-fence}} expect-error@+1 {{comm-put-drain}}
  pto::comm::TPUT(v7, v6, v5);
  pto::comm::NotifyOp v9 = pto::comm::NotifyOp::Set;
  pto::comm::TNOTIFY(v8, v4, v9);
  pipe_barrier(PIPE_ALL);
  dcci((__gm__ void*) 0, cache_line_t::ENTIRE_DATA_CACHE);
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
}
