// sync-deadlock (C++): a helper returns a config struct from a switch over its mode argument;
// the set takes the config's event, the wait assumes EVENT_ID0. For Mode::Second the config says
// EVENT_ID1, so the wait blocks forever (the switch is followed for the mode passed, and each
// field of the returned aggregate is read).
// Variant of corpus/sync-deadlock/good/event_id_from_helper_struct.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

enum class Mode { First, Second };
struct StageConfig {
  bool load;
  event_t ready;
};

AICORE inline StageConfig configFor(Mode mode) {
  switch (mode) {
    case Mode::First:
      return StageConfig{true, EVENT_ID0};
    case Mode::Second:
      return StageConfig{true, EVENT_ID1};
  }
  return StageConfig{false, EVENT_ID2};
}

AICORE void stage(__gm__ int32_t* src) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> t;
  TASSIGN(t, 0);
  StageConfig cfg = configFor(Mode::Second);
  Row in(src);
  // expect-warning@+1 {{ub-range}}
  if (cfg.load) TLOAD(t, in);
  set_flag(PIPE_MTE2, PIPE_V, cfg.ready);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
