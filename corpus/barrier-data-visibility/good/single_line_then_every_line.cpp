// barrier-data-visibility (C++): one single-line writeback of the tile's first line and a dsb,
// then a walk over all four of its lines and another dsb before the soft barrier: the second
// publish covers what the first missed. Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

constexpr int32_t kLanes = 8;

static AICORE void produce(__gm__ float* out, int32_t block) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> t;
  TASSIGN(t, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> g(out + block * 64);
  TEXPANDS(t, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, t);
}

static AICORE void consume(__gm__ float* in, __gm__ float* out, int32_t block) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> t;
  TASSIGN(t, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> gi(in + block * 64), go(out + block * 64);
  TLOAD(t, gi);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(go, t);
}

extern "C" AICORE void kernel_entry(__gm__ int64_t* args) {
  const int32_t lane = static_cast<int32_t>(get_block_idx(args));
  __gm__ Tensor* mid_t = reinterpret_cast<__gm__ Tensor*>(args[0]);
  __gm__ Tensor* out_t = reinterpret_cast<__gm__ Tensor*>(args[1]);
  __gm__ Tensor* ws_t = reinterpret_cast<__gm__ Tensor*>(args[2]);
  __gm__ float* mid = reinterpret_cast<__gm__ float*>(mid_t->buffer.addr);
  __gm__ float* out = reinterpret_cast<__gm__ float*>(out_t->buffer.addr);
  __gm__ int32_t* ws = reinterpret_cast<__gm__ int32_t*>(ws_t->buffer.addr);
  produce(mid, lane);
  pipe_barrier(PIPE_ALL);
  dcci(reinterpret_cast<__gm__ void*>(mid + lane * 64), SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  for (int32_t line = 0; line < 4; ++line) {
    dcci(reinterpret_cast<__gm__ void*>(mid + lane * 64 + line * 16), SINGLE_CACHE_LINE, CACHELINE_OUT);
  }
  dsb(DSB_DDR);
  GlobalTensor<int32_t, Shape<>, Stride<>> counter(ws);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(counter, kLanes);
  const int32_t other = (lane + 1) % kLanes;
  for (int32_t line = 0; line < 4; ++line) {
    dcci(reinterpret_cast<__gm__ void*>(mid + other * 64 + line * 16), SINGLE_CACHE_LINE);
  }
  dsb(DSB_DDR);
  consume(mid, out, other);
}
