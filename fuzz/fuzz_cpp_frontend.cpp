// The C++ front end (Clang) and every rule on one small C++ file: the model or an input error,
// never a crash. Clang itself is not instrumented; what is fuzzed is the translation into the
// model.
#include "analyzer/cpp/cpp_frontend.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ptov::cpp::registerFrontend();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // small files: each run parses with Clang
  ptov::checkText("fuzz.cpp", ptov::fuzz::text(data, size), ptov::fuzz::request());
  return 0;
}
