// One finding per field and writing function: ctrl rewrites this round's core count on the shared
// program directly and again through a reference to it. The review gets one comment, at the
// first write, with the second as its note.
#include <cstdint>

struct DevArgs {
  uint32_t nrValidAic;
};
struct DevProg {
  DevArgs devArgs;
};

void InitRound(DevProg* devProg, uint32_t roundAic, bool halve) {
  devProg->devArgs.nrValidAic = roundAic;  // expect-error {{timing-shared-field-write}}
  DevArgs& shared = devProg->devArgs;
  if (halve) shared.nrValidAic = roundAic / 2;  // the same field: a note of the finding above
}

extern "C" int PyptoKernelCtrlServer(DevProg* devProg) {
  InitRound(devProg, 24, false);
  return 0;
}
