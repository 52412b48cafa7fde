// Where the real upstream corpus is, for the unit tests that read it, and the skip rule they share
// with tests/real_corpus_dir.sh: absent => the case prints the skip marker CTest reads (see
// tests/CMakeLists.txt) and returns; under CI=true absence is a failure.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

// $PTOVERIFY_REAL_CORPUS, else the CMake cache variable of the same name.
inline std::string realCorpusDir() {
  const char* env = std::getenv("PTOVERIFY_REAL_CORPUS");
  return env && *env ? env : PTOVERIFY_REAL_CORPUS;
}

inline bool realCorpusPresent() {
  std::string dir = realCorpusDir();
  if (std::filesystem::is_directory(dir)) return true;
  const char* ci = std::getenv("CI");
  if (ci && std::string(ci) == "true") {
    FAIL_CHECK("the real upstream corpus is missing at " << dir << ", and under CI=true the real-corpus tests must run");
  } else {
    std::cout << "PTOVERIFY-SKIPPED: the real upstream corpus (PTOAS .pto, HIVM .mlir, pypto-lib/PTOAS C++, cann/pypto "
                 "machine code) is not at "
              << dir << "; get it with scripts/fetch-real-corpus or point PTOVERIFY_REAL_CORPUS at it\n";
  }
  return false;
}

#define SKIP_WITHOUT_REAL_CORPUS() \
  if (!realCorpusPresent()) return
