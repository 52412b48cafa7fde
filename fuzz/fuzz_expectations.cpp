// The corpus's inline-expectation parser (`// expect-error@+1 {{rule}} witness {{...}}`).
#include "cli/corpus.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ptov::parseExpectations(ptov::fuzz::text(data, size));
  return 0;
}
