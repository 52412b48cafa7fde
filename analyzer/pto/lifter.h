#pragma once
#include <string>
#include <vector>

#include "analyzer/mlir/ir.h"
#include "analyzer/model/model.h"

namespace ptov::pto {

struct LiftOptions {
  std::string defaultArch = "a2a3";  // used when the module has no pto.target_arch
};

// Lifts every function with a body in `file` into kernels. Constructs that cannot be
// modelled are reported as notes in `diags`; they never stop the rest of the file.
std::vector<Kernel> lift(const mlir::ParsedFile& file, const LiftOptions& opts,
                         std::vector<InputDiagnostic>& diags);

// "a2", "a3", "a2a3" -> "a2a3"; "a5" -> "a5"; "" when not recognized.
std::string normalizeArch(const std::string& arch);

}  // namespace ptov::pto
