// Which role runs this function decides whether its write races: ctrl rewriting this round's core
// count on the shared program would (sche still reads it), and nothing in this input reaches the
// function from a configured entry point (timing.roles). The answer is unknown, never a guess.
#include <cstdint>

struct DevArgs {
  uint32_t nrValidAic;
};
struct DevProg {
  DevArgs devArgs;
};

void RecalcCoreCount(DevProg* devProg, uint32_t n) {
  devProg->devArgs.nrValidAic = n;  // expect-unknown {{timing-shared-field-write}}
}
