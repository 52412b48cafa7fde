// sync-deadlock (C++): the wait reads the other field of the constant struct, an id nothing set.
// Variant of corpus/sync-deadlock/good/event_ids_from_constant_struct.cpp.
#include "pto/pto-inst.hpp"
using namespace pto;

struct StageEvents {
  event_t load;
  event_t compute;
};

AICORE void staged(__gm__ int32_t* src) {
  const StageEvents ev{EVENT_ID2, EVENT_ID3};
  set_flag(PIPE_MTE2, PIPE_V, ev.load);
  // expect-error@+1 {{sync-deadlock}}
  wait_flag(PIPE_MTE2, PIPE_V, ev.compute);
}
