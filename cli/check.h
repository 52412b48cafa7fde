#pragma once
// `ptoverify check`: inputs -> model -> rules -> findings, and the exit code.
#include <iosfwd>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "rules/rule.h"

namespace ptov {

struct CheckRequest {
  std::vector<std::string> paths;
  std::vector<std::string> ruleGlobs;  // empty = every rule
  std::string arch = "a2a3";           // default for files that do not name their target arch
  std::string compileCommandsDir;      // -p DIR: compile_commands.json for C++ inputs
  std::vector<std::string> compilerArgs;  // after `--`: flags for the C++ front end
  std::shared_ptr<const std::set<std::string>> inputFiles;  // the run's inputs, normalised (set by the run)
  Severity failOn = Severity::Warning;
  bool strict = false;          // an undecided proof (unknown) makes the exit code 3
  SolverOptions solver;         // per-query / per-kernel budgets, parameter ranges
  std::map<std::string, Severity> severityOverrides;  // rule id -> severity (from the config)
  RuleSettings ruleSettings;                          // from the config
  // Configuration: --config FILE, else .ptoverify.yaml above each input (cli/config.h).
  // Options named in `fromCli` were given on the command line and win over the file.
  std::string configPath;
  bool useConfigFiles = true;
  std::set<std::string> fromCli;  // "rules", "arch", "fail-on", "solver-timeout", "kernel-budget", "param-range"
  unsigned jobs = 1;          // -j N: files checked in parallel (output order stays the input order)
  bool spareThread = false;   // set by runCheck: more jobs than inputs (a file's core views parse side by side)
  int shard = 1, shards = 1;  // --shard K/N: check only the stable K-th of N parts of the inputs
  bool recordApplicability = false;  // fill FileResult::applicableRules
  bool progress = true;       // a progress line on stderr for long runs when it is a TTY
  // The inputs sit in a mirror (`mirrorAt`) of `mirrorOf` (cli/differential.h): compile commands
  // are looked up as the original files and their paths moved into the mirror.
  std::string mirrorOf, mirrorAt;
};

// A finding the gate does not count, kept so that SARIF shows it as suppressed or unchanged
// instead of letting a known defect vanish from code scanning.
struct HiddenFinding {
  Finding finding;
  bool inSource = true;       // an inline suppression; false: matched by the baseline
  std::string justification;  // the suppression's reason, or which baseline has it
  bool alsoInBaseline = false;  // an inline-suppressed finding the baseline has as well
  bool atBase = false;          // --diff / --changed-lines: the code before the change has it too
};

struct FileResult {
  std::string path;
  // Its place among every input of the run, shards or not: `merge` puts the shards' results
  // back in the order one unsharded run writes them.
  size_t inputIndex = 0;
  std::vector<InputDiagnostic> inputDiagnostics;
  std::vector<Finding> findings;
  std::vector<std::string> kernelNames;  // every kernel of the file, in order
  // Per kernel (same order): the enabled rules that have something to check there; filled when
  // the request asks (audit's Not-applicable).
  std::vector<std::set<std::string>> applicableRules;
  // Per kernel (same order, always filled): enabled rules that apply but could not be decided
  // with the facts of this run, with why ("no launch linked"). Never reported as a pass.
  std::vector<std::map<std::string, std::string>> notChecked;
  std::vector<size_t> linkedLaunches;  // per kernel: launches found in orchestration inputs
  std::vector<ModelGap> notModelled;  // what the front end could not model, over the file's kernels
  FunctionCoverage coverage;          // C++ control code: functions modelled fully / partly / not at all
  SyncCoverage sync;                  // C++ device code: sync calls written / modelled (missed: in notModelled)
  // Per kernel (same order): its view ("aic" / "aiv" / "") and the sync calls written in the
  // functions it runs / held by its model; written 0 for kernels of other front ends.
  struct KernelSync {
    std::string view;
    int written = 0, modelled = 0;
  };
  std::vector<KernelSync> kernelSync;
  std::vector<HiddenFinding> hidden;  // removed by inline suppressions or by the baseline
  size_t suppressedCount() const;
  size_t baselinedCount() const;
  size_t atBaseCount() const;
  bool hasInputErrors() const;
};

struct CheckResult {
  std::vector<FileResult> files;
  std::vector<std::string> problems;  // "PATH: error: ..." for missing paths and empty directories
  Severity failOn = Severity::Warning;
  bool strict = false;
  // Baseline entries for checked files that no finding matched any more (SARIF baselineState
  // "absent"); entries of files this run did not check are not absent, only not checked.
  std::vector<Finding> absentBaselineFindings;
  size_t untrustedCacheEntries = 0;  // --cache-dir entries ignored (edited, foreign, malformed)
  // 0 = nothing at or above failOn; 1 = findings; 2 = an input or usage error;
  // 3 = (--strict) no findings, but a proof was undecided.
  int exitCode() const;
};

// The front ends' options a request implies (arch, compile commands).
FrontendOptions frontendOptions(const CheckRequest& req);
FileResult checkFile(const std::string& path, const CheckRequest& req);
FileResult checkText(const std::string& path, const std::string& text, const CheckRequest& req);
CheckResult runCheck(const CheckRequest& req);
// The request for one input with its configuration applied (--config, else the .ptoverify.yaml
// above it); `error` is set, and `req` returned, when that file is broken.
CheckRequest requestFor(const std::string& path, const CheckRequest& req, std::string& error);

// Exit codes, documented in the README.
constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitInputError = 2;
constexpr int kExitUnknown = 3;

}  // namespace ptov
