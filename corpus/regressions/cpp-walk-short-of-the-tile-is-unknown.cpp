// A walk over cache lines that writes back 128 of the 256 bytes each lane's tile holds: as
// paired with the write (the same lane), its lines miss the tile's second half. Another lane's
// walk could in principle hold them, so this is not proved either way: unknown, with the walk
// shown (docs/rules/barrier-data-visibility.md). Variant of
// corpus/barrier-data-visibility/good/line_walk_publish.cpp, written for this corpus.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

constexpr uint64_t kLine = 64;
constexpr int32_t kLanes = 8;

static AICORE void walk_lines(__gm__ void* address, uint64_t bytes, bool publish) {
  if (bytes == 0U) {
    return;
  }
  const uint64_t raw = reinterpret_cast<uint64_t>(address);
  const uint64_t first = raw & ~(kLine - 1U);
  const uint64_t end = (raw + bytes + kLine - 1U) & ~(kLine - 1U);
  for (uint64_t line = first; line < end; line += kLine) {
    if (publish) {
      dcci(reinterpret_cast<__gm__ void*>(line), SINGLE_CACHE_LINE, CACHELINE_OUT);
    } else {
      dcci(reinterpret_cast<__gm__ void*>(line), SINGLE_CACHE_LINE);
    }
  }
}

static AICORE void produce(__gm__ float* out, int32_t block) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> t;
  TASSIGN(t, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> g(out + block * 64);
  TEXPANDS(t, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, t);  // expect-unknown {{barrier-data-visibility}}
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
  walk_lines(mid + lane * 64, 128, true);
  dsb(DSB_DDR);
  GlobalTensor<int32_t, Shape<>, Stride<>> counter(ws);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(counter, kLanes);
  walk_lines(mid + ((lane + 1) % kLanes) * 64, 256, false);
  dsb(DSB_DDR);
  consume(mid, out, (lane + 1) % kLanes);
}
