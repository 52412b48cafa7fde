#pragma once
// Shared by the libFuzzer targets (fuzz/README.md): the input as text, a request with small
// solver budgets (a fuzz input must not be slow because Z3 is), and a private temporary file for
// the entry points that read paths.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "cli/check.h"

namespace ptov::fuzz {

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

inline CheckRequest request() {
  CheckRequest req;
  req.useConfigFiles = false;
  req.progress = false;
  req.solver.queryTimeoutMs = 200;
  req.solver.kernelBudgetMs = 1000;
  return req;
}

// `bytes` written to /tmp/ptoverify-fuzz-PID.EXT (one file per process and extension).
inline std::string tempFile(const std::string& bytes, const std::string& ext) {
  std::string path = "/tmp/ptoverify-fuzz-" + std::to_string(getpid()) + "." + ext;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

}  // namespace ptov::fuzz
