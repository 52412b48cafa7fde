#include "cli/check.h"

#include "cli/report/fingerprint.h"
#include "cli/suppressions.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace ptov {

bool FileResult::hasInputErrors() const {
  for (const auto& d : inputDiagnostics)
    if (d.level == InputDiagnostic::Level::Error) return true;
  return false;
}

int CheckResult::exitCode() const {
  bool inputError = !problems.empty();
  bool findings = false, unknown = false;
  for (const auto& f : files) {
    inputError |= f.hasInputErrors();
    for (const auto& x : f.findings) {
      if (x.unknown) unknown = true;
      else findings |= x.severity >= failOn;
    }
  }
  if (inputError) return kExitInputError;
  if (findings) return kExitFindings;
  return strict && unknown ? kExitUnknown : kExitClean;
}

namespace {
// One solver (one Z3 context) per set of solver options for the whole run.
Solver& solverFor(const SolverOptions& o) {
  static std::map<std::string, std::unique_ptr<Solver>> solvers;
  std::string key = std::to_string(o.queryTimeoutMs) + "/" + std::to_string(o.kernelBudgetMs);
  for (const auto& [name, range] : o.paramRanges)
    key += "/" + name + "=" + std::to_string(range.first) + ":" + std::to_string(range.second);
  auto& s = solvers[key];
  if (!s) s = std::make_unique<Solver>(o);
  return *s;
}

FileResult checkLoaded(LoadedFile loaded, const CheckRequest& req) {
  FileResult r;
  r.path = loaded.path;
  r.inputDiagnostics = std::move(loaded.diagnostics);
  r.kernels = loaded.kernels.size();
  for (const auto& k : loaded.kernels) r.kernelNames.push_back(k.name);
  Solver& solver = solverFor(req.solver);
  for (const auto& k : loaded.kernels) {
    auto f = runRules(k, req.ruleGlobs, &solver);
    r.findings.insert(r.findings.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
  }
  return r;
}

FrontendOptions frontendOptions(const CheckRequest& req) {
  FrontendOptions fo;
  fo.defaultArch = req.arch;
  return fo;
}
}  // namespace

FileResult checkFile(const std::string& path, const CheckRequest& req) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return checkLoaded(loadFile(path, frontendOptions(req)), req);  // reports the read error
  std::stringstream ss;
  ss << in.rdbuf();
  return checkText(path, ss.str(), req);
}

FileResult checkText(const std::string& path, const std::string& text, const CheckRequest& req) {
  FileResult r = checkLoaded(loadText(path, text, frontendOptions(req)), req);
  applySuppressions(text, r);
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  return r;
}

CheckResult runCheck(const CheckRequest& req) {
  CheckResult result;
  result.failOn = req.failOn;
  result.strict = req.strict;
  for (const auto& path : collectInputs(req.paths, result.problems)) result.files.push_back(checkFile(path, req));
  assignFingerprints(result);
  return result;
}

}  // namespace ptov
