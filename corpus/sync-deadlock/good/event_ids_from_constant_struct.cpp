// sync-deadlock (C++): event ids read from the fields of a constant struct are the ids it was
// initialised with; the wait takes the id its set used.
// expect-no-findings
#include "pto/pto-inst.hpp"
using namespace pto;

struct StageEvents {
  event_t load;
  event_t compute;
};

AICORE void staged(__gm__ int32_t* src) {
  const StageEvents ev{EVENT_ID2, EVENT_ID3};
  set_flag(PIPE_MTE2, PIPE_V, ev.load);
  wait_flag(PIPE_MTE2, PIPE_V, ev.load);
  set_flag(PIPE_V, PIPE_MTE3, ev.compute);
  wait_flag(PIPE_V, PIPE_MTE3, ev.compute);
}
