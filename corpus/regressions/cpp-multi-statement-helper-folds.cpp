// C++ front end: a participant count computed by a helper with several statements (a
// static_assert, a clamp, a return) folds to its value. Here it is 7 while the grid-stride loops
// step by 8 lanes, so lane 7's work happens but lane 7 is not waited for.
// Written for this corpus.
#include <cstdint>
#include "pto/pto-inst.hpp"
using namespace pto;

constexpr int32_t kLanes = 8;

static AICORE int32_t barrier_participants(int32_t lanes) {
  static_assert(kLanes > 0, "lanes");
  int32_t n = lanes - 1;
  if (n < 1) {
    n = 1;
  }
  return n;
}

static AICORE void phase(__gm__ float* out, int32_t block) {
  Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, 8, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> t;
  TASSIGN(t, (uint64_t) 0);
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 1>> g(out + block * 64);
  TEXPANDS(t, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, t);
  pipe_barrier(PIPE_ALL);
}

extern "C" AICORE void kernel_entry(__gm__ int64_t* args) {
  const int32_t lane = static_cast<int32_t>(get_block_idx(args));
  __gm__ Tensor* out_t = reinterpret_cast<__gm__ Tensor*>(args[0]);
  __gm__ Tensor* ws_t = reinterpret_cast<__gm__ Tensor*>(args[1]);
  __gm__ float* out = reinterpret_cast<__gm__ float*>(out_t->buffer.addr);
  __gm__ int32_t* ws = reinterpret_cast<__gm__ int32_t*>(ws_t->buffer.addr);
  const int32_t work = static_cast<int32_t>(args[2]);
  // expect-error@+1 {{barrier-participants}}
  for (int32_t block = lane; block < work; block += kLanes) {
    phase(out, block);
  }
  pipe_barrier(PIPE_ALL);
  GlobalTensor<int32_t, Shape<>, Stride<>> counter(ws);
  SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(counter, barrier_participants(kLanes));
}
