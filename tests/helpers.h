#pragma once
// Small helpers shared by the unit tests: parse/lift/check MLIR text held in a string.
#include <string>
#include <vector>

#include "analyzer/mlir/parser.h"
#include "analyzer/pto/lifter.h"
#include "rules/rule.h"

namespace ptov::test {

inline std::vector<Kernel> liftText(const std::string& text, std::vector<InputDiagnostic>* diagsOut = nullptr,
                                    const std::string& arch = "a2a3") {
  mlir::ParsedFile f = mlir::parseText(text, "test.pto");
  std::vector<InputDiagnostic> diags = f.diagnostics;
  pto::LiftOptions o;
  o.defaultArch = arch;
  auto ks = pto::lift(f, o, diags);
  if (diagsOut) *diagsOut = diags;
  return ks;
}

// Findings of one rule over every kernel in `text`.
inline std::vector<Finding> findingsOf(const std::string& rule, const std::string& text,
                                       const std::string& arch = "a2a3") {
  std::vector<Finding> out;
  for (const auto& k : liftText(text, nullptr, arch)) {
    auto f = runRules(k, {rule});
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

inline std::string kernelText(const std::string& params, const std::string& body,
                              const std::string& arch = "a2a3") {
  return "module attributes {pto.target_arch = \"" + arch + "\"} {\n  func.func @k(" + params +
         ") attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" + body + "    return\n  }\n}\n";
}

}  // namespace ptov::test
