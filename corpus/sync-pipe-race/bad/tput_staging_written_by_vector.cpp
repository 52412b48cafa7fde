// sync-pipe-race (C++): TPUT loads its source into the staging tile on MTE2 inside itself
// (PTOAS #706), while a vector op may still be writing that tile: nothing orders V before the
// put's hidden MTE2 write. Twin: corpus/sync-pipe-race/good/tput_staging_synced.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

AICORE void put_after_fill(__gm__ float* peer, __gm__ float* local) {
  Tile<TileType::Vec, float, 1, 64> stage;
  TASSIGN(stage, 0);
  GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> dst(peer), src(local);
  TEXPANDS(stage, 0.0f);
  // Its load phase writes the tile on MTE2 (WAW) and its store phase reads it on MTE3 (RAW).
  // expect-error@+2 {{sync-pipe-race}}
  // expect-error@+1 {{sync-pipe-race}}
  pto::comm::TPUT(dst, src, stage);
  pipe_barrier(PIPE_ALL);
}
