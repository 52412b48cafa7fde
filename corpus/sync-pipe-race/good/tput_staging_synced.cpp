// expect-no-findings
// sync-pipe-race (C++): the vector fill of the staging tile is ordered before the put's hidden
// MTE2 load by V -> MTE2. Twin of corpus/sync-pipe-race/bad/tput_staging_written_by_vector.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void put_after_fill(__gm__ float* peer, __gm__ float* local) {
  Tile<TileType::Vec, float, 1, 64> stage;
  TASSIGN(stage, 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> dst(peer), src(local);
  TEXPANDS(stage, 0.0f);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  pto::comm::TPUT(dst, src, stage);
  pipe_barrier(PIPE_ALL);
}
