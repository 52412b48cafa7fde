// `ptoverify merge` on one SARIF input given twice: a merged log or an input error (exit 2),
// never an exception or a crash.
#include "cli/merge.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string in = ptov::fuzz::tempFile(ptov::fuzz::text(data, size), "sarif");
  std::string out = "/tmp/ptoverify-fuzz-" + std::to_string(getpid()) + ".merged.sarif";
  int code = ptov::mergeSarif({in, in}, out);
  if (code != 0 && code != 2) __builtin_trap();
  return 0;
}
