// The .ptoverify.yaml loader: any bytes are a configuration or an error with a line, never a
// crash.
#include "cli/config.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ptov::Config c;
  std::string error;
  if (ptov::loadConfig(ptov::fuzz::tempFile(ptov::fuzz::text(data, size), "yaml"), c, error)) ptov::dumpConfig(c);
  return 0;
}
