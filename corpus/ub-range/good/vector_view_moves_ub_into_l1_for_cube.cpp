// expect-no-findings
// ub-range (C++): in a file compiled once per core kind, the vector view moves its UB tile into
// L1 with the raw copy_ubuf_to_cbuf (MTE3; pto-isa's a5 tinsert_kernel.cpp does this before its
// cube side reads the L1 tile) and the cube view reads it. The vector view alone sees no reader of
// the L1 value: it is the other view's, not a lost value. Written for this corpus.
#include "pto/pto-inst.hpp"
using namespace pto;

__global__ AICORE void ub_into_l1(__gm__ uint64_t* ffts, __gm__ float* src, __gm__ float* dst) {
  set_ffts_base_addr((uint64_t)ffts);
  Tile<TileType::Vec, float, 16, 16> ub;
  TASSIGN(ub, 0x0);
  Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512> mat;
  TASSIGN(mat, 0x0);
#if defined(__DAV_VEC__)
  GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> in(src);
  TLOAD(ub, in);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf(mat.data(), ub.data(), 0, 1, 32, 0, 0);
  ffts_cross_core_sync(PIPE_MTE3, getFFTSMsg(2, 1));
#endif
#if defined(__DAV_CUBE__)
  wait_flag_dev(1);
  GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> out(dst);
  TSTORE(out, mat);
#endif
  pipe_barrier(PIPE_ALL);
}
