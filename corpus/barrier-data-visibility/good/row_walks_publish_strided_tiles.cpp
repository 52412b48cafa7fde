// barrier-data-visibility (C++): each lane writes 8x8 tiles of a 32-column matrix, one per
// grid-stride step, and publishes them row by row with a walk over each row's 64-byte lines (the
// shape of pypto-lib's publish_x_mixed); readers drop the same rows before reading them. Each
// walk is paired with the write's grid-stride step and row, and its lines hold that row: proved
// for every lane and step. Written for this corpus.
// expect-no-findings
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

constexpr uint64_t kLine = 64;
constexpr int32_t kLanes = 8;
constexpr int32_t kColumns = 32;

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

using TileT = Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null>;
using Rows = GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, kColumns, 1>>;

// Tile `block` sits at rows (block / 4) * 8 and columns (block % 4) * 8.
static AICORE int64_t tileStart(int32_t block) { return (block / 4) * 8 * kColumns + (block % 4) * 8; }

static AICORE void produce(__gm__ float* out, int32_t block) {
  TileT t;
  TASSIGN(t, (uint64_t) 0);
  Rows g(out + tileStart(block));
  TEXPANDS(t, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, t);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
}

static AICORE void consume(__gm__ float* in, __gm__ float* out, int32_t block) {
  TileT t;
  TASSIGN(t, (uint64_t) 0);
  Rows gi(in + tileStart(block)), go(out + tileStart(block));
  TLOAD(t, gi);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(go, t);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
}

extern "C" AICORE void kernel_entry(__gm__ int64_t* args) {
  const int32_t lane = static_cast<int32_t>(get_block_idx(args));
  const int32_t blocks = static_cast<int32_t>(args[3]);
  __gm__ Tensor* mid_t = reinterpret_cast<__gm__ Tensor*>(args[0]);
  __gm__ Tensor* out_t = reinterpret_cast<__gm__ Tensor*>(args[1]);
  __gm__ Tensor* ws_t = reinterpret_cast<__gm__ Tensor*>(args[2]);
  __gm__ float* mid = reinterpret_cast<__gm__ float*>(mid_t->buffer.addr);
  __gm__ float* out = reinterpret_cast<__gm__ float*>(out_t->buffer.addr);
  __gm__ int32_t* ws = reinterpret_cast<__gm__ int32_t*>(ws_t->buffer.addr);
  for (int32_t block = lane; block < blocks; block += kLanes) {
    produce(mid, block);
  }
  pipe_barrier(PIPE_ALL);
  for (int32_t block = lane; block < blocks; block += kLanes) {
    for (int32_t row = 0; row < 8; ++row) {
      walk_lines(mid + tileStart(block) + row * kColumns, 8 * sizeof(float), true);
    }
  }
  dsb(DSB_DDR);
  GlobalTensor<int32_t, Shape<>, Stride<>> counter(ws);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(counter, kLanes);
  for (int32_t block = lane; block < blocks; block += kLanes) {
    for (int32_t row = 0; row < 8; ++row) {
      walk_lines(mid + tileStart(block) + row * kColumns, 8 * sizeof(float), false);
    }
  }
  dsb(DSB_DDR);
  for (int32_t block = lane; block < blocks; block += kLanes) {
    consume(mid, out, block);
  }
}
