// The MLIR-text reader alone: any bytes give a parse tree or errors, never a crash or a hang.
#include "analyzer/mlir/parser.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ptov::mlir::parseText(ptov::fuzz::text(data, size), "fuzz.pto");
  return 0;
}
