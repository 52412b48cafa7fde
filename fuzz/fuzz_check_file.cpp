// Reader + lifter + every rule on one .pto file (the first byte picks .pto or .mlir, so the HIVM
// half of the lifter is reached too), with the inline suppressions applied.
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string path = data[0] % 2 ? "fuzz.mlir" : "fuzz.pto";
  ptov::checkText(path, ptov::fuzz::text(data + 1, size - 1), ptov::fuzz::request());
  return 0;
}
