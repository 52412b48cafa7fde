// sync-deadlock (C++): a helper returns a config struct from a switch over its mode argument, and
// both the set and the wait take the config's event: the wait finds its set whichever mode is
// passed, here a runtime one (the returned field is a choice by the case values).
// expect-no-findings
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

AICORE void stage(__gm__ int32_t* src, int second) {
  using Row = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
  Tile<TileType::Vec, int32_t, 1, 64> t;
  TASSIGN(t, 0);
  StageConfig cfg = configFor(second ? Mode::Second : Mode::First);
  Row in(src);
  if (cfg.load) TLOAD(t, in);
  set_flag(PIPE_MTE2, PIPE_V, cfg.ready);
  wait_flag(PIPE_MTE2, PIPE_V, cfg.ready);
  if (cfg.load) TADDS(t, t, 1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  if (cfg.load) TSTORE(in, t);
}
