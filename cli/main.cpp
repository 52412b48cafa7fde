// ptoverify command-line driver.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "analyzer/model/op_registry.h"
#include "cli/audit.h"
#include "cli/baseline.h"
#include "cli/changed_lines.h"
#include "cli/check.h"
#include "cli/config.h"
#include "cli/corpus.h"
#include "cli/differential.h"
#include "cli/merge.h"
#include "cli/model_dump.h"
#include "cli/mutate.h"
#include "cli/report/formats.h"
#include "cli/source_root.h"
#include "cli/text_reporter.h"
#include "cli/witness_dot.h"
#include "rules/rule.h"
#ifdef PTOVERIFY_WITH_CPP
#include "analyzer/cpp/cpp_frontend.h"
#endif

namespace {

std::vector<std::string> splitGlobs(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  for (const auto& r : raw) {
    size_t start = 0;
    while (start <= r.size()) {
      size_t comma = r.find(',', start);
      std::string part = r.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!part.empty()) out.push_back(part);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

// "num_tokens=0:128" -> name, lo, hi.
bool parseParamRange(const std::string& s, std::string& name, int64_t& lo, int64_t& hi) {
  auto eq = s.find('='), colon = s.rfind(':');
  if (eq == std::string::npos || colon == std::string::npos || colon < eq || eq == 0) return false;
  name = s.substr(0, eq);
  if (name[0] == '%') name = name.substr(1);
  try {
    size_t used = 0;
    std::string a = s.substr(eq + 1, colon - eq - 1), b = s.substr(colon + 1);
    lo = std::stoll(a, &used);
    if (used != a.size()) return false;
    hi = std::stoll(b, &used);
    if (used != b.size()) return false;
  } catch (...) {
    return false;
  }
  return lo <= hi;
}

// Where FORMAT:FILE writes: FILE itself, or DIR/index.html for html:DIR (a page of its own).
std::string reportFile(const std::string& format, const std::string& file) {
  return ptov::findReportFormat(format)->has(ptov::kDirectory) ? (std::filesystem::path(file) / "index.html").string()
                                                               : file;
}

// --format's help: the registered names.
std::string formatHelp() {
  std::string names;
  for (const auto& f : ptov::reportFormats()) names += " " + f.name;
  return "output format, repeatable:" + names + "; FORMAT:FILE writes that format to FILE (html:DIR writes DIR/index.html)";
}

// A default as one line of YAML; a table too long for a line is left to `config --dump`.
std::string defaultText(const YAML::Node& value) {
  if (value.IsScalar()) return value.Scalar().empty() ? "\"\"" : value.Scalar();
  YAML::Emitter e;
  e << value;
  std::string text = e.c_str();
  return text.find('\n') == std::string::npos ? text : "in `ptoverify config --dump`";
}

// `explain`'s list of a rule's options, with their defaults per arch ("" without options).
std::string optionsText(const ptov::Rule& r) {
  const auto options = r.options();
  if (options.empty()) return "";
  std::string out = "\n## Options (`.ptoverify.yaml`: `options: " + r.info().id + ": {name: value}`)\n\n";
  for (const ptov::RuleOption& o : options) {
    std::string defaults;
    for (const auto& [arch, value] : o.defaults)
      defaults += (defaults.empty() ? "" : "; ") + (arch.empty() ? "" : arch + ": ") + defaultText(value);
    out += "- `" + o.name + "` (default " + defaults + "): " + o.help + "\n";
  }
  return out;
}

}  // namespace

namespace {
using namespace ptov;

// What the command line gave: the request every checking command shares, and each
// subcommand's own values.
struct Args {
  CheckRequest req;
  std::string sourceRoot;
  std::vector<std::string> rawGlobs, rawRanges;
  std::string failOn = "warning", shardSpec;
  std::vector<CLI::Option*> tracked;  // options a configuration file must not override
  struct {
    std::vector<std::string> formats;
    std::string outputFile, color = "auto", sarifCategory = "ptoverify", helpUriBase, baselinePath, diffRange,
                            changedLinesFile, filterMode = "added", witnessDot;
    bool quiet = false;
  } check;
  std::string baselineOut;
  std::vector<std::string> auditRules;
  std::string auditFormat = "text";
  bool isaDeclarations = false;
  std::vector<std::string> modelPaths, mergeInputs;
  std::string mergeOutput, configFor = ".", rulesFormat = "text", explainId;
  bool dump = false;
  std::vector<std::string> corpusPaths{"corpus"};
  bool corpusReport = false;
  MutateRequest mutate;
  std::vector<std::string> rawOperators, rawMinimums;
  bool listOperators = false;
  bool goldenFormatsOnly = false;
};

// The subcommands, once parsed: which one ran.
struct Commands {
  CLI::App *check, *baseline, *audit, *isa, *model, *merge, *config, *rules, *explain, *corpus, *mutate, *formats;
};

void addCommonOptions(CLI::App* sub, Args& a) {
  a.tracked.push_back(
      sub->add_option("--rules", a.rawGlobs,
                      "rule globs, comma separated; a leading '-' removes (e.g. 'comm-*,-comm-wait-batching')")
          ->allow_extra_args(false));
  a.tracked.push_back(sub->add_option("--arch", a.req.arch, "target arch for files without pto.target_arch")
                          ->check(CLI::IsMember({"a2a3", "a5"}))
                          ->capture_default_str());
  sub->add_option("--config", a.req.configPath, "configuration file (default: .ptoverify.yaml above each input)");
  sub->add_option("-p", a.req.compileCommandsDir, "directory with compile_commands.json, for C++ inputs");
  sub->add_option("--source-root", a.sourceRoot,
                  "directory that SARIF URIs and baseline paths are relative to (default: the git top level of "
                  "the first input, else the current directory)");
}

void addSolverOptions(CLI::App* sub, Args& a) {
  a.tracked.push_back(sub->add_option("--solver-timeout", a.req.solver.queryTimeoutMs, "Z3 time limit per query, in ms")
                          ->capture_default_str());
  a.tracked.push_back(sub->add_option("--kernel-budget", a.req.solver.kernelBudgetMs,
                                      "time limit for one kernel's proofs (unrolling, query building, Z3), in ms")
                          ->capture_default_str());
  a.tracked.push_back(sub->add_option("--param-range", a.rawRanges,
                                      "range of a scalar parameter for the proofs, NAME=LO:HI (repeatable)")
                          ->allow_extra_args(false));
  a.tracked.push_back(
      sub->add_option("--cache-dir", a.req.solver.cacheDir,
                      "keep solver answers in DIR across runs (re-checks of unchanged kernels ask Z3 nothing)"));
}

CLI::App* addCheckCommand(CLI::App& app, Args& a) {
  CLI::App* check = app.add_subcommand("check", "check kernels and print findings");
  auto& c = a.check;
  check->add_option("paths", a.req.paths, "files or directories (searched recursively for .pto, .mlir and C++ files)")
      ->required();
  addCommonOptions(check, a);
  a.tracked.push_back(check->add_option("--fail-on", a.failOn, "lowest severity that makes the exit code 1")
                          ->check(CLI::IsMember({"error", "warning", "note"}))
                          ->capture_default_str());
  check->add_option("--color", c.color, "colour the text output (auto: on a terminal, unless NO_COLOR is set)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  check->add_flag("-q,--quiet", c.quiet, "text output: only findings and input errors/warnings, no summary line");
  check
      ->add_option("--sarif-category", c.sarifCategory,
                   "SARIF runs[].automationDetails.id prefix: the code-scanning category of this run")
      ->capture_default_str();
  check
      ->add_option("--format", c.formats, formatHelp())
      ->allow_extra_args(false);
  check->add_option("--output,-o", c.outputFile, "write the (single) --format given without a file to FILE");
  check->add_option("--help-uri-base", c.helpUriBase,
                    "URL of a ptoverify checkout (ending in /): SARIF rules get helpUri = URL + docs/rules/ID.md");
  // Every core by default: the output does not depend on N, and a gate over a generated tree
  // should not leave cores idle (up to 8: a C++ input's model can take a few hundred MB).
  a.req.jobs = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  check
      ->add_option("-j,--jobs", a.req.jobs,
                   "check N files in parallel (output order is the input order; default: the cores, up to 8)")
      ->check(CLI::Range(1u, 256u))
      ->default_val(a.req.jobs);
  check->add_option("--shard", a.shardSpec, "check only part K of N (K/N) of the inputs, stably split by path");
  check->add_option("--baseline", c.baselinePath, "report only findings that this baseline (baseline create) lacks");
  check->add_option("--diff", c.diffRange,
                    "report only the findings the change BASE..HEAD brings (the inputs are checked at BASE as well; "
                    "HEAD is the tree on disk)");
  check->add_option("--changed-lines", c.changedLinesFile,
                    "the same for the change a unified diff in FILE makes (the files on disk are its new side)");
  check
      ->add_option("--filter-mode", c.filterMode,
                   "which new findings --diff / --changed-lines report: added (on or across a changed line, "
                   "deletions included), diff_context, file, nofilter")
      ->check(CLI::IsMember({"added", "diff_context", "file", "nofilter"}))
      ->capture_default_str();
  check->add_flag("--strict", a.req.strict, "exit 3 when no finding fails the run but a proof was undecided (unknown)");
  check->add_option(
      "--witness-dot", c.witnessDot,
      "write each proof finding's witness as a Graphviz DOT lane diagram into DIR (one file per finding)");
  addSolverOptions(check, a);
  return check;
}

CLI::App* addMutateCommand(CLI::App& app, Args& a) {
  CLI::App* mutate = app.add_subcommand("mutate", "mutation kill-rate report over known-good kernels");
  MutateRequest& m = a.mutate;
  mutate->add_option("paths", m.paths, "known-good kernels: files or directories");
  mutate->add_option("--operators", a.rawOperators, "operators to apply, comma separated (default: all)")
      ->allow_extra_args(false);
  mutate->add_option("--seed", m.seed, "seed for sampling with --max")->capture_default_str();
  mutate->add_option("--max", m.max, "run at most N mutants, sampled with --seed (0 = all)")->capture_default_str();
  mutate->add_option("--min-kill-rate", m.minKillRate, "fail (exit 1) when a gated operator kills fewer, in percent")
      ->check(CLI::Range(0, 100));
  mutate->add_option("--require", a.rawMinimums, "per-operator minimum, OPERATOR=PERCENT (repeatable)")
      ->allow_extra_args(false);
  mutate->add_flag("--list", a.listOperators, "list the operators and the rules meant to kill them");
  mutate->add_option("--arch", m.arch, "target arch for files without pto.target_arch")
      ->check(CLI::IsMember({"a2a3", "a5"}));
  return mutate;
}

Commands addCommands(CLI::App& app, Args& a) {
  Commands cmd{};
  cmd.check = addCheckCommand(app, a);

  cmd.baseline = app.add_subcommand("baseline", "record today's findings so later checks report only new ones");
  CLI::App* create = cmd.baseline->add_subcommand("create", "write a baseline of the findings in PATH...");
  create->add_option("-o,--output", a.baselineOut, "the baseline file to write")->required();
  create->add_option("paths", a.req.paths, "files or directories")->required();
  addCommonOptions(create, a);
  cmd.baseline->require_subcommand(1);

  cmd.audit = app.add_subcommand("audit", "kernel x rule table: Proved / Violated / Unknown / Not checked / N/A");
  cmd.audit->add_option("--rule", a.auditRules, "a rule (or glob) to audit; repeatable (default: every rule)")
      ->allow_extra_args(false);
  cmd.audit->add_option("--format", a.auditFormat, "text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  cmd.audit->add_option("paths", a.req.paths, "files or directories")->required();
  cmd.audit->add_option("--arch", a.req.arch, "target arch for files without one")
      ->check(CLI::IsMember({"a2a3", "a5"}));
  cmd.audit->add_option("--config", a.req.configPath, "configuration file");

  cmd.isa = app.add_subcommand(
      "isa", "list the PTO-ISA instructions both front ends know: kind, spellings, pipes, hidden accesses");
  cmd.isa->add_flag("--prelude", a.isaDeclarations,
                    "print the C++ prelude's declarations of the tile instructions instead");
  cmd.model = app.add_subcommand("model", "print the kernel model the front ends built (ops, gaps)");
  cmd.model->add_option("paths", a.modelPaths, "files or directories")->required();
  cmd.model->add_option("--arch", a.req.arch, "target arch for files without one")
      ->check(CLI::IsMember({"a2a3", "a5"}));
  cmd.model->add_option("-p", a.req.compileCommandsDir, "directory with compile_commands.json (C++ inputs)");

  cmd.merge = app.add_subcommand("merge", "join the SARIF of --shard runs into one log");
  cmd.merge->add_option("inputs", a.mergeInputs, "SARIF files written by ptoverify check --format sarif")->required();
  cmd.merge->add_option("-o,--output", a.mergeOutput, "the merged SARIF file")->required();

  cmd.config = app.add_subcommand("config", "show the configuration that applies to a path");
  cmd.config->add_flag("--dump", a.dump, "print the effective configuration as YAML")->required();
  cmd.config->add_option("path", a.configFor, "the input whose .ptoverify.yaml to use")->capture_default_str();
  cmd.config->add_option("--config", a.req.configPath, "configuration file instead of the one found above the path");

  cmd.rules = app.add_subcommand("rules", "list every rule: id, severity, summary");
  cmd.rules->add_option("--format", a.rulesFormat, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd.explain = app.add_subcommand("explain", "print a rule's documentation");
  cmd.explain->add_option("rule-id", a.explainId, "the rule id")->required();

  cmd.corpus = app.add_subcommand("corpus", "check files against their inline expect- comments");
  cmd.corpus->add_option("paths", a.corpusPaths, "corpus files or directories")->capture_default_str();
  cmd.corpus->add_flag("--report", a.corpusReport, "print per-rule good/bad counts");
  addCommonOptions(cmd.corpus, a);
  addSolverOptions(cmd.corpus, a);

  cmd.mutate = addMutateCommand(app, a);
  // Hidden: what the bash completion and the tests read the --format names from.
  cmd.formats = app.add_subcommand("formats", "list the --format names, one a line with its help")->group("");
  cmd.formats->add_flag("--golden", a.goldenFormatsOnly, "only the names of the formats with a golden test");
  return cmd;
}

// The options every checking command shares, validated into the request; false (after an
// error message) on a bad value.
bool settleSharedOptions(Args& a) {
  CheckRequest& req = a.req;
  for (CLI::Option* o : a.tracked)
    if (o->count() > 0) {
      std::string name = o->get_name();
      while (!name.empty() && name[0] == '-') name.erase(name.begin());
      req.fromCli.insert(name);
    }
  if (!a.shardSpec.empty()) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(a.shardSpec);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 1 || k > n || !in.eof()) {
      std::cerr << "ptoverify: error: --shard expects K/N with 1 <= K <= N, got '" << a.shardSpec << "'\n";
      return false;
    }
    req.shard = k;
    req.shards = n;
  }
  for (const auto& r : a.rawRanges) {
    std::string name;
    int64_t lo = 0, hi = 0;
    if (!parseParamRange(r, name, lo, hi)) {
      std::cerr << "ptoverify: error: --param-range expects NAME=LO:HI with LO <= HI, got '" << r << "'\n";
      return false;
    }
    req.solver.paramRanges[name] = {lo, hi};
  }
  req.ruleGlobs = splitGlobs(a.rawGlobs);
  parseSeverity(a.failOn, req.failOn);
  for (const auto& g : req.ruleGlobs) {
    std::string bare = g[0] == '-' ? g.substr(1) : g;
    bool matchesAny = false;
    for (const auto& r : allRules()) matchesAny |= ruleEnabled(r->info().id, {bare});
    if (!matchesAny) {
      std::cerr << "ptoverify: error: --rules '" << g << "' matches no rule (see 'ptoverify rules')\n";
      return false;
    }
  }
  if (!req.ruleGlobs.empty() && !anyRuleEnabled(req.ruleGlobs)) {  // a gate that checks nothing must not pass
    std::cerr << "ptoverify: error: --rules leaves no rule enabled\n";
    return false;
  }
  return true;
}

// `--format FORMAT[:FILE]` as (format, file) pairs, with --output given to the one without a
// file; false (after an error message) when they do not add up.
bool reportOutputs(const Args& a, std::vector<std::pair<std::string, std::string>>& outputs, size_t& onStdout) {
  for (const auto& f : splitGlobs(a.check.formats)) {
    auto colon = f.find(':');
    std::string name = f.substr(0, colon), file = colon == std::string::npos ? "" : f.substr(colon + 1);
    if (!findReportFormat(name)) {
      std::cerr << "ptoverify: error: unknown --format '" << name << "'\n";
      return false;
    }
    outputs.emplace_back(name, file);
  }
  if (outputs.empty()) outputs.emplace_back("text", "");
  onStdout = 0;
  for (auto& o : outputs) onStdout += o.second.empty() || o.second == "-";
  const std::string& outputFile = a.check.outputFile;
  if (onStdout > 1 && outputFile.empty()) {
    std::cerr << "ptoverify: error: " << onStdout
              << " formats would go to standard output, concatenated; give all but one a file (--format FMT:FILE)\n";
    return false;
  }
  if (!outputFile.empty()) {
    size_t toStdout = 0;
    for (auto& o : outputs) toStdout += o.second.empty();
    if (toStdout != 1) {
      std::cerr << "ptoverify: error: --output needs exactly one --format without its own file\n";
      return false;
    }
    for (auto& o : outputs)
      if (o.second.empty()) o.second = outputFile;
  }
  return true;
}

// --diff / --changed-lines: only the findings the change brings stay in `result`; `root` becomes
// the diff's. False (after an error message) when the change cannot be read.
bool keepChangedFindings(const Args& a, CheckResult& result, std::string& root) {
  const auto& c = a.check;
  ChangedLines lines;
  std::string error;
  bool ok;
  if (!c.diffRange.empty()) {
    ok = changedLinesFromGit(c.diffRange, root, lines, error);
  } else {
    std::ifstream in(c.changedLinesFile);
    lines.root = root;
    ok = in && parseUnifiedDiff(in, lines, error);
    if (!in) error = "cannot read '" + c.changedLinesFile + "'";
  }
  Differential diff{
      &lines, FilterMode::Added,
      c.diffRange.empty() ? "the old side of " + c.changedLinesFile : c.diffRange.substr(0, c.diffRange.find(".."))};
  parseFilterMode(c.filterMode, diff.mode);
  size_t left = 0;
  if (ok) ok = keepNewFindings(diff, a.req, result, left, error);
  if (!ok) {
    std::cerr << "ptoverify: error: " << error << '\n';
    return false;
  }
  if (left)
    std::cerr << "ptoverify: " << left << " new finding(s) away from the changed lines left out (--filter-mode "
              << c.filterMode << "; nofilter reports them)\n";
  root = lines.root;
  return true;
}

// Writes each report; false (after an error message) when a file cannot be written.
bool writeReports(const Args& a, const CheckResult& result,
                  const std::vector<std::pair<std::string, std::string>>& outputs, const ReportOptions& ro) {
  for (const auto& [name, file] : outputs) {
    std::ofstream fileOut;
    if (!file.empty() && file != "-") {
      if (findReportFormat(name)->has(kDirectory)) {
        std::error_code ec;
        std::filesystem::create_directories(file, ec);
      }
      fileOut.open(reportFile(name, file));
      if (!fileOut) {
        std::cerr << "ptoverify: error: cannot write '" << file << "'\n";
        return false;
      }
    }
    std::ostream& out = fileOut.is_open() ? static_cast<std::ostream&>(fileOut) : std::cout;
    const char* noColor = std::getenv("NO_COLOR");  // no-color.org: set and not empty
    const std::string& color = a.check.color;
    ReportOptions options = ro;
    options.color = !fileOut.is_open() &&
                    (color == "always" || (color == "auto" && isatty(STDOUT_FILENO) && !(noColor && *noColor)));
    options.quiet = a.check.quiet;
    writeReport(name, result, out, options);
  }
  return true;
}

int runCheckCommand(Args& a) {
  const auto& c = a.check;
  std::vector<std::pair<std::string, std::string>> outputs;
  size_t onStdout = 0;
  if (!reportOutputs(a, outputs, onStdout)) return kExitInputError;
  for (auto& o : outputs) a.req.recordApplicability |= findReportFormat(o.first)->has(kNeedsApplicability);
  CheckResult result = runCheck(a.req);
  std::string root = findSourceRoot(a.req.paths, a.sourceRoot);
  bool baselineApplied = !c.baselinePath.empty();  // SARIF's baselineState: against a baseline or BASE
  if (!c.baselinePath.empty()) {
    std::string error;
    if (!applyBaseline(c.baselinePath, result, root, error)) {
      std::cerr << error << '\n';
      return kExitInputError;
    }
  }
  if (!c.diffRange.empty() || !c.changedLinesFile.empty()) {
    if (!keepChangedFindings(a, result, root)) return kExitInputError;
    baselineApplied = true;
  }
  ReportOptions ro;
  ro.sourceRoot = root;
  ro.sarifCategory = c.sarifCategory;
  ro.baselineApplied = baselineApplied;
  for (const auto& [name, file] : outputs)  // the outputs that leave findings out point at a complete one
    if (findReportFormat(name)->has(kComplete) && !file.empty() && file != "-") {
      ro.fullReportHint = "the full report is " + reportFile(name, file);
      break;
    }
  ro.ruleGlobs = a.req.ruleGlobs;
  ro.helpUriBase = c.helpUriBase;
  if (!writeReports(a, result, outputs, ro)) return kExitInputError;
  if (onStdout == 0 && c.outputFile.empty() && !c.quiet) {  // every report went to a file: say what and where
    printText(result, std::cout, false, false, true);
    for (const auto& [name, file] : outputs)
      std::cout << "ptoverify: " << name << " report written to " << reportFile(name, file) << '\n';
  }
  std::string dotError;
  if (!c.witnessDot.empty() && !writeWitnessDots(result, c.witnessDot, dotError)) {
    std::cerr << dotError << '\n';
    return kExitInputError;
  }
  return result.exitCode();
}

int runConfigCommand(const Args& a) {
  std::string path = !a.req.configPath.empty() ? a.req.configPath : findConfig(a.configFor);
  Config c;
  std::string error;
  if (!path.empty() && !loadConfig(path, c, error)) {
    std::cerr << error << '\n';
    return kExitInputError;
  }
  std::cout << dumpConfig(c);
  return 0;
}

int runBaselineCommand(const Args& a) {
  CheckResult result = runCheck(a.req);
  if (!writeBaseline(result, a.baselineOut, findSourceRoot(a.req.paths, a.sourceRoot))) {
    std::cerr << "ptoverify: error: cannot write '" << a.baselineOut << "'\n";
    return kExitInputError;
  }
  size_t n = 0;
  for (const auto& f : result.files) n += f.findings.size();
  std::cout << "ptoverify: baseline of " << n << " finding(s) written to " << a.baselineOut << '\n';
  return result.exitCode() == kExitInputError ? kExitInputError : kExitClean;
}

int runRulesCommand(const Args& a) {
  if (a.rulesFormat == "json") {
    printRulesJson(std::cout);
    return 0;
  }
  for (const auto& r : allRules()) {
    const RuleInfo& i = r->info();
    std::string id = i.id;
    id.resize(std::max<size_t>(id.size(), 22), ' ');
    std::string sev = severityName(i.severity);
    sev.resize(8, ' ');
    std::cout << id << "  " << sev << "  " << i.summary << '\n';
  }
  return 0;
}

int runExplainCommand(const Args& a) {
  const Rule* r = findRule(a.explainId);
  if (!r) {
    std::cerr << "ptoverify: error: unknown rule '" << a.explainId << "' (see 'ptoverify rules')\n";
    return kExitInputError;
  }
  std::string doc = ruleDoc(a.explainId);
  if (doc.empty()) doc = r->info().summary + "\n";
  std::cout << doc << optionsText(*r);
  return 0;
}

int runIsaCommand(const Args& a) {
  if (a.isaDeclarations)
    std::cout << ops::preludeDeclarations();
  else
    for (const auto& in : ops::all()) std::cout << ops::describe(in) << '\n';
  return 0;
}

int runMutateCommand(Args& a) {
  if (a.listOperators) {
    for (const auto& op : mutationOperators()) {
      std::cout << op.name << ": " << op.summary << " -> ";
      for (size_t i = 0; i < op.intendedRules.size(); ++i) std::cout << (i ? ", " : "") << op.intendedRules[i];
      std::cout << (op.gated ? "" : " (not gated: no rule yet)") << '\n';
    }
    std::cout << "not implemented yet (they need the C++ front end): replace get_block_idx(args) by "
                 "get_block_idx(), swap two args[i] reads, insert an early return before a barrier, change a "
                 "barrier participant count (docs/corpus.md)\n";
    return 0;
  }
  if (a.mutate.paths.empty()) {
    std::cerr << "ptoverify: error: mutate needs at least one path\n";
    return kExitInputError;
  }
  a.mutate.operators = splitGlobs(a.rawOperators);
  for (const auto& m : a.rawMinimums) {
    auto eq = m.find('=');
    int pct = -1;
    try {
      pct = eq == std::string::npos ? -1 : std::stoi(m.substr(eq + 1));
    } catch (...) {
    }
    if (pct < 0 || pct > 100) {
      std::cerr << "ptoverify: error: --require expects OPERATOR=PERCENT, got '" << m << "'\n";
      return kExitInputError;
    }
    a.mutate.perOperatorMinKillRate[m.substr(0, eq)] = pct;
  }
  return runMutate(a.mutate, std::cout);
}

int runFormatsCommand(const Args& a) {
  for (const auto& f : reportFormats()) {
    if (a.goldenFormatsOnly) {
      if (f.has(kGolden)) std::cout << f.name << '\n';
      continue;
    }
    std::string name = f.name;
    name.resize(std::max<size_t>(name.size(), 10), ' ');
    std::cout << name << f.help << '\n';
  }
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"ptoverify: static verifier for generated Ascend NPU kernels (.pto, HIVM, C++)", "ptoverify"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ptoverify 0.1.0");
  Args a;
  // Everything after `--` is for the C++ front end (-I, -D, ...), as clang-tidy takes it.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      a.req.compilerArgs.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  Commands cmd = addCommands(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitInputError;
  }
  if (!settleSharedOptions(a)) return kExitInputError;
  if (*cmd.check) return runCheckCommand(a);
  if (*cmd.merge) return mergeSarif(a.mergeInputs, a.mergeOutput);
  if (*cmd.audit) {
    a.req.ruleGlobs = splitGlobs(a.auditRules);
    if (!a.req.ruleGlobs.empty()) a.req.fromCli.insert("rules");
    return runAudit(a.req, a.auditFormat, std::cout);
  }
  if (*cmd.isa) return runIsaCommand(a);
  if (*cmd.model) return runModelDump(a.modelPaths, frontendOptions(a.req), std::cout);
  if (*cmd.config) return runConfigCommand(a);
  if (*cmd.baseline) return runBaselineCommand(a);
  if (*cmd.rules) return runRulesCommand(a);
  if (*cmd.explain) return runExplainCommand(a);
  if (*cmd.corpus) return runCorpus(a.corpusPaths, a.req, a.corpusReport, std::cout);
  if (*cmd.mutate) return runMutateCommand(a);
  if (*cmd.formats) return runFormatsCommand(a);
  return kExitInputError;
}
}  // namespace

// C++ inputs are read by `ptoverify-cpp` (it links Clang); this binary hands the same command
// line over to it, so a .pto-only run never loads Clang.
int runWithCppFrontend(char** argv) {
  std::string dir = ptov::executableDir();
  if (dir.empty()) dir = std::filesystem::path(argv[0]).parent_path().string();
  std::string cppExe = (std::filesystem::path(dir) / "ptoverify-cpp").string();
  std::cout.flush();  // its own buffer (main): what is in it would be lost with this image
  execv(cppExe.c_str(), argv);
  std::cerr << "ptoverify: error: C++ inputs need " << cppExe << " (" << std::strerror(errno) << ")\n";
  return ptov::kExitInputError;
}

// Exit codes other than 0/1/2 mean an internal error: a bug in ptoverify, never a verdict.
int main(int argc, char** argv) {
  // Nothing here writes standard output through C stdio, so std::cout can keep its own buffer:
  // in step with stdio it wrote each piece of each report line separately. std::cerr is tied
  // to std::cout, so the two stay in order. A terminal keeps stdio's line buffering.
  if (!isatty(STDOUT_FILENO)) std::ios::sync_with_stdio(false);
#ifdef PTOVERIFY_WITH_CPP
  ptov::cpp::registerFrontend();
#endif
  try {
    return run(argc, argv);
  } catch (const ptov::NeedsCppFrontend&) {
    return runWithCppFrontend(argv);
  } catch (const std::exception& e) {
    std::cerr << "ptoverify: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "ptoverify: internal error\n";
  }
  return 70;
}
