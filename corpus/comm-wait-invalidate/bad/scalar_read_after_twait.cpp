// comm-wait-invalidate in C++ (written for this corpus, in the shape of pto-isa's MoE dispatch):
// every rank scalar-stores its count into a peer's `counts` and notifies it, then waits for the
// others and reads `counts` through the scalar unit with no dcci first. A line of `counts`
// cached before the peers wrote it is read stale. The TLOAD of the same buffer is a DMA read
// and needs no invalidate.
#include "pto/pto-inst.hpp"
using namespace pto;

// The same buffer on another rank: its window base plus that rank's offset.
template <typename T>
AICORE inline __gm__ T* OnPeer(__gm__ T* local, int64_t peerOffset) {
  return reinterpret_cast<__gm__ T*>(reinterpret_cast<__gm__ uint8_t*>(local) + peerOffset);
}

extern "C" __global__ AICORE void gather_counts(__gm__ int32_t* counts, __gm__ int32_t* signal, __gm__ int32_t* out,
                                                int32_t me, int64_t peerOffset) {
  OnPeer(counts, peerOffset)[me] = 1;
  pipe_barrier(PIPE_ALL);
  dcci((__gm__ void*)0, cache_line_t::ENTIRE_DATA_CACHE);
  dsb(DSB_DDR);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>> sig(signal);
  pto::comm::TNOTIFY(sig, 1, pto::comm::NotifyOp::AtomicAdd);
  pto::comm::TWAIT(sig, 8, pto::comm::WaitCmp::GE);
  Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 8, SLayout::NoneBox, 512, PadValue::Null, CompactMode::Null> t;
  TASSIGN(t, (uint64_t)0);
  GlobalTensor<int32_t, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>> countsG(counts);
  // expect-warning@+1 {{ub-range}}
  TLOAD(t, countsG);
  // expect-error@+1 {{comm-wait-invalidate}}
  out[0] = counts[0] + counts[1];
}
