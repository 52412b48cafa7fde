#pragma once
// The C++ front end (Clang LibTooling): generated kernels, kernel_entry wrappers, fused external
// kernels and orchestration code -> the same Kernel model the .pto lifter fills.
//
// Only the `ptoverify-cpp` executable links it (and Clang); `ptoverify` hands runs with C++
// inputs over to that executable, so a .pto-only run never loads Clang (docs/architecture.md).
#include <string>

#include "analyzer/frontend.h"

namespace ptov::cpp {

// Where the bundled prelude lives: $PTOVERIFY_PRELUDE, <exe>/../share/ptoverify/prelude, or the
// source tree it was built from.
std::string preludeDir();

// Parses `text` (the contents of `path`) with the prelude and models every kernel root, every
// wrapper and every orchestration function in it. Clang errors become input diagnostics; an
// unknown identifier or a missing header is a warning and the rest of the file is still modelled.
LoadedFile load(const std::string& path, const std::string& text, const FrontendOptions& opts);

// Registers `load` with analyzer/frontend.cpp (called by ptoverify-cpp's main).
void registerFrontend();

}  // namespace ptov::cpp
