// sync-deadlock (C++): a PTOAS-generated pass body header given alone (no entry, `__aicore__`
// functions only): its functions are the kernels, so a wait with no set in it is found without
// the wrapper that includes it. Variant of corpus/sync-deadlock/good/pass_body_generated.hpp.
#pragma once
#include "pto/pto-inst.hpp"
using namespace pto;

__aicore__ inline void norm_pass(__gm__ float* x) {
  using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, float, 1, 64> t;
  TASSIGN(t, 0);
  G g(x);
  TLOAD(t, g);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  // expect-error@+2 {{sync-pipe-race}}
  // expect-warning@+1 {{ub-range}}
  TMULS(t, t, 2.0f);
}
