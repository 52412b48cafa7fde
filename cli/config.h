#pragma once
// .ptoverify.yaml (yaml-cpp), found by walking up from each input like .clang-tidy, or given
// with --config. Command-line options win over the file. Keys (docs/config.md):
//   rules: [glob, -glob, ...]          which rules run
//   severity: {rule-id: error|warning|note}
//   arch: a2a3 | a5                    for inputs that do not name one
//   fail-on: error | warning | note
//   solver: {timeout-ms: N, kernel-budget-ms: N, cache-dir: DIR, param-ranges: {name: [lo, hi]}}
//   options: {rule-id: {option: value}}  e.g. ub-range: {ub-bytes: 131072}; each rule declares
//                                      its own (Rule::options), with its reader and default
//   host-read: [param, ...]           kernel parameters only the host reads (comm-publish-fence)
//   timing: {roles: ..., shared-fields: [...], stop-order: {...}, hard-wait: {...}}
//                                      the timing rules' options under their older section
//                                      (RuleOption::alias)
// An unknown key or a bad value is an error with the YAML line and column.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rules/rule.h"
#include "solver/solver.h"

namespace ptov {

struct Config {
  std::string path;  // "" = no file
  std::optional<std::vector<std::string>> rules;
  std::map<std::string, Severity> severity;
  std::optional<std::string> arch;
  std::optional<Severity> failOn;
  std::optional<unsigned> timeoutMs, kernelBudgetMs;
  std::optional<std::string> cacheDir;
  std::map<std::string, std::pair<int64_t, int64_t>> paramRanges;
  RuleOptions ruleOptions;
  std::set<std::string> hostRead;
};

// Parses `path`; false with "FILE:line:col: error: ..." in `error` on a bad file.
bool loadConfig(const std::string& path, Config& out, std::string& error);
// The .ptoverify.yaml governing `input` (its directory and every parent), or "" if none.
std::string findConfig(const std::string& input);
// The same for an input known to be a file (collectInputs' answers): one lookup per directory
// as written, no system call for the files after the first of a directory.
std::string findConfigOfFile(const std::string& file);
// The effective configuration as YAML, for `ptoverify config --dump`.
std::string dumpConfig(const Config& c);

}  // namespace ptov
