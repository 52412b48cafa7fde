// ptoverify command-line driver.
#include <malloc.h>
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

#include "analyzer/model/isa_table.h"
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
  return format == "html" ? (std::filesystem::path(file) / "index.html").string() : file;
}

// `explain`'s list of a rule's options, with their defaults per arch ("" without options).
std::string optionsText(const ptov::Rule& r) {
  const auto options = r.options();
  if (options.empty()) return "";
  std::string out = "\n## Options (`.ptoverify.yaml`: `options: " + r.info().id + ": {name: value}`)\n\n";
  for (const ptov::RuleOption& o : options) {
    std::string defaults;
    for (const auto& [arch, value] : o.defaults)
      defaults += (defaults.empty() ? "" : "; ") + (arch.empty() ? "" : arch + ": ") + std::to_string(value);
    out += "- `" + o.name + "` (default " + defaults + "): " + o.help + "\n";
  }
  return out;
}

}  // namespace

namespace {
int run(int argc, char** argv) {
  using namespace ptov;
  CLI::App app{"ptoverify: static verifier for generated Ascend NPU kernels (.pto, HIVM, C++)", "ptoverify"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ptoverify 0.1.0");

  CheckRequest req;
  std::string sourceRoot;
  // Everything after `--` is for the C++ front end (-I, -D, ...), as clang-tidy takes it.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      req.compilerArgs.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  std::vector<std::string> rawGlobs;
  std::string failOn = "warning";
  std::vector<CLI::Option*> trackedOptions;
  auto addCommon = [&](CLI::App* sub) {
    trackedOptions.push_back(
        sub->add_option("--rules", rawGlobs,
                        "rule globs, comma separated; a leading '-' removes (e.g. 'comm-*,-comm-wait-batching')")
            ->allow_extra_args(false));
    trackedOptions.push_back(sub->add_option("--arch", req.arch, "target arch for files without pto.target_arch")
                                 ->check(CLI::IsMember({"a2a3", "a5"}))
                                 ->capture_default_str());
    sub->add_option("--config", req.configPath, "configuration file (default: .ptoverify.yaml above each input)");
    sub->add_option("-p", req.compileCommandsDir, "directory with compile_commands.json, for C++ inputs");
    sub->add_option("--source-root", sourceRoot,
                    "directory that SARIF URIs and baseline paths are relative to (default: the git top level of "
                    "the first input, else the current directory)");
  };

  CLI::App* check = app.add_subcommand("check", "check kernels and print findings");
  check->add_option("paths", req.paths, "files or directories (searched recursively for .pto, .mlir and C++ files)")->required();
  addCommon(check);
  trackedOptions.push_back(check->add_option("--fail-on", failOn, "lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "note"}))
      ->capture_default_str());
  std::string color = "auto";
  check->add_option("--color", color, "colour the text output (auto: on a terminal, unless NO_COLOR is set)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  bool quiet = false;
  check->add_flag("-q,--quiet", quiet, "text output: only findings and input errors/warnings, no summary line");
  std::string sarifCategory = "ptoverify";
  check->add_option("--sarif-category", sarifCategory,
                    "SARIF runs[].automationDetails.id prefix: the code-scanning category of this run")
      ->capture_default_str();
  std::vector<std::string> formats;
  std::string outputFile;
  check->add_option("--format", formats,
                    "output format, repeatable: text json sarif rdjson rdjsonl junit github gitcode markdown html; FORMAT:FILE "
                    "writes that format to FILE (html:DIR writes DIR/index.html)")
      ->allow_extra_args(false);
  check->add_option("--output,-o", outputFile, "write the (single) --format given without a file to FILE");
  std::string helpUriBase;
  check->add_option("--help-uri-base", helpUriBase,
                    "URL of a ptoverify checkout (ending in /): SARIF rules get helpUri = URL + docs/rules/ID.md");
  std::string shardSpec;
  // Every core by default: the output does not depend on N, and a gate over a generated tree
  // should not leave cores idle (up to 8: a C++ input's model can take a few hundred MB).
  req.jobs = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  check->add_option("-j,--jobs", req.jobs, "check N files in parallel (output order is the input order; default: the cores, up to 8)")
      ->check(CLI::Range(1u, 256u))
      ->default_val(req.jobs);
  check->add_option("--shard", shardSpec, "check only part K of N (K/N) of the inputs, stably split by path");
  std::string baselinePath;
  check->add_option("--baseline", baselinePath, "report only findings that this baseline (baseline create) lacks");
  std::string diffRange, changedLinesFile, filterMode = "added";
  check->add_option("--diff", diffRange,
                    "report only the findings the change BASE..HEAD brings (the inputs are checked at BASE as well; "
                    "HEAD is the tree on disk)");
  check->add_option("--changed-lines", changedLinesFile,
                    "the same for the change a unified diff in FILE makes (the files on disk are its new side)");
  check
      ->add_option("--filter-mode", filterMode,
                   "which new findings --diff / --changed-lines report: added (on or across a changed line, "
                   "deletions included), diff_context, file, nofilter")
      ->check(CLI::IsMember({"added", "diff_context", "file", "nofilter"}))
      ->capture_default_str();
  check->add_flag("--strict", req.strict, "exit 3 when no finding fails the run but a proof was undecided (unknown)");
  std::string witnessDot;
  check->add_option("--witness-dot", witnessDot, "write each proof finding's witness as a Graphviz DOT lane diagram into DIR (one file per finding)");
  std::vector<std::string> rawRanges;
  auto addSolverOptions = [&](CLI::App* sub) {
    trackedOptions.push_back(
        sub->add_option("--solver-timeout", req.solver.queryTimeoutMs, "Z3 time limit per query, in ms")
            ->capture_default_str());
    trackedOptions.push_back(
        sub->add_option("--kernel-budget", req.solver.kernelBudgetMs, "time limit for one kernel's proofs (unrolling, query building, Z3), in ms")
            ->capture_default_str());
    trackedOptions.push_back(
        sub->add_option("--param-range", rawRanges, "range of a scalar parameter for the proofs, NAME=LO:HI (repeatable)")
            ->allow_extra_args(false));
    trackedOptions.push_back(sub->add_option(
        "--cache-dir", req.solver.cacheDir, "keep solver answers in DIR across runs (re-checks of unchanged kernels ask Z3 nothing)"));
  };
  addSolverOptions(check);

  CLI::App* baseline = app.add_subcommand("baseline", "record today's findings so later checks report only new ones");
  CLI::App* baselineCreate = baseline->add_subcommand("create", "write a baseline of the findings in PATH...");
  std::string baselineOut;
  baselineCreate->add_option("-o,--output", baselineOut, "the baseline file to write")->required();
  baselineCreate->add_option("paths", req.paths, "files or directories")->required();
  addCommon(baselineCreate);
  baseline->require_subcommand(1);

  CLI::App* audit = app.add_subcommand("audit", "kernel x rule table: Proved / Violated / Unknown / Not checked / N/A");
  std::vector<std::string> auditRules;
  std::string auditFormat = "text";
  audit->add_option("--rule", auditRules, "a rule (or glob) to audit; repeatable (default: every rule)")
      ->allow_extra_args(false);
  audit->add_option("--format", auditFormat, "text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  audit->add_option("paths", req.paths, "files or directories")->required();
  audit->add_option("--arch", req.arch, "target arch for files without one")->check(CLI::IsMember({"a2a3", "a5"}));
  audit->add_option("--config", req.configPath, "configuration file");

  CLI::App* isaCmd = app.add_subcommand("isa", "list the PTO-ISA instructions both front ends know: kind, spellings, pipes, hidden accesses");
  bool isaDeclarations = false;
  isaCmd->add_flag("--prelude", isaDeclarations, "print the C++ prelude's declarations of the tile instructions instead");
  CLI::App* modelCmd = app.add_subcommand("model", "print the kernel model the front ends built (ops, gaps)");
  std::vector<std::string> modelPaths;
  modelCmd->add_option("paths", modelPaths, "files or directories")->required();
  modelCmd->add_option("--arch", req.arch, "target arch for files without one")->check(CLI::IsMember({"a2a3", "a5"}));
  modelCmd->add_option("-p", req.compileCommandsDir, "directory with compile_commands.json (C++ inputs)");

  CLI::App* merge = app.add_subcommand("merge", "join the SARIF of --shard runs into one log");
  std::vector<std::string> mergeInputs;
  std::string mergeOutput;
  merge->add_option("inputs", mergeInputs, "SARIF files written by ptoverify check --format sarif")->required();
  merge->add_option("-o,--output", mergeOutput, "the merged SARIF file")->required();

  CLI::App* config = app.add_subcommand("config", "show the configuration that applies to a path");
  bool dump = false;
  std::string configFor = ".";
  config->add_flag("--dump", dump, "print the effective configuration as YAML")->required();
  config->add_option("path", configFor, "the input whose .ptoverify.yaml to use")->capture_default_str();
  config->add_option("--config", req.configPath, "configuration file instead of the one found above the path");

  CLI::App* rules = app.add_subcommand("rules", "list every rule: id, severity, summary");
  std::string rulesFormat = "text";
  rules->add_option("--format", rulesFormat, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();

  std::string explainId;
  CLI::App* explain = app.add_subcommand("explain", "print a rule's documentation");
  explain->add_option("rule-id", explainId, "the rule id")->required();

  std::vector<std::string> corpusPaths{"corpus"};
  bool corpusReport = false;
  CLI::App* corpus = app.add_subcommand("corpus", "check files against their inline expect- comments");
  corpus->add_option("paths", corpusPaths, "corpus files or directories")->capture_default_str();
  corpus->add_flag("--report", corpusReport, "print per-rule good/bad counts");
  addCommon(corpus);
  addSolverOptions(corpus);

  MutateRequest mreq;
  std::vector<std::string> rawOperators, rawMinimums;
  bool listOperators = false;
  CLI::App* mutate = app.add_subcommand("mutate", "mutation kill-rate report over known-good kernels");
  mutate->add_option("paths", mreq.paths, "known-good kernels: files or directories");
  mutate->add_option("--operators", rawOperators, "operators to apply, comma separated (default: all)")->allow_extra_args(false);
  mutate->add_option("--seed", mreq.seed, "seed for sampling with --max")->capture_default_str();
  mutate->add_option("--max", mreq.max, "run at most N mutants, sampled with --seed (0 = all)")->capture_default_str();
  mutate->add_option("--min-kill-rate", mreq.minKillRate, "fail (exit 1) when a gated operator kills fewer, in percent")
      ->check(CLI::Range(0, 100));
  mutate->add_option("--require", rawMinimums, "per-operator minimum, OPERATOR=PERCENT (repeatable)")->allow_extra_args(false);
  mutate->add_flag("--list", listOperators, "list the operators and the rules meant to kill them");
  mutate->add_option("--arch", mreq.arch, "target arch for files without pto.target_arch")
      ->check(CLI::IsMember({"a2a3", "a5"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitInputError;
  }

  for (CLI::Option* o : trackedOptions)
    if (o->count() > 0) {
      std::string name = o->get_name();
      while (!name.empty() && name[0] == '-') name.erase(name.begin());
      req.fromCli.insert(name);
    }
  if (!shardSpec.empty()) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(shardSpec);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 1 || k > n || !in.eof()) {
      std::cerr << "ptoverify: error: --shard expects K/N with 1 <= K <= N, got '" << shardSpec << "'\n";
      return kExitInputError;
    }
    req.shard = k;
    req.shards = n;
  }
  for (const auto& r : rawRanges) {
    std::string name;
    int64_t lo = 0, hi = 0;
    if (!parseParamRange(r, name, lo, hi)) {
      std::cerr << "ptoverify: error: --param-range expects NAME=LO:HI with LO <= HI, got '" << r << "'\n";
      return kExitInputError;
    }
    req.solver.paramRanges[name] = {lo, hi};
  }
  req.ruleGlobs = splitGlobs(rawGlobs);
  parseSeverity(failOn, req.failOn);
  for (const auto& g : req.ruleGlobs) {
    std::string bare = g[0] == '-' ? g.substr(1) : g;
    bool matchesAny = false;
    for (const auto& r : allRules()) matchesAny |= ruleEnabled(r->info().id, {bare});
    if (!matchesAny) {
      std::cerr << "ptoverify: error: --rules '" << g << "' matches no rule (see 'ptoverify rules')\n";
      return kExitInputError;
    }
  }
  if (!req.ruleGlobs.empty() && !anyRuleEnabled(req.ruleGlobs)) {  // a gate that checks nothing must not pass
    std::cerr << "ptoverify: error: --rules leaves no rule enabled\n";
    return kExitInputError;
  }

  if (*check) {
    // FORMAT or FORMAT:FILE; one FORMAT without a file may go to --output.
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const auto& f : splitGlobs(formats)) {
      auto colon = f.find(':');
      std::string name = f.substr(0, colon), file = colon == std::string::npos ? "" : f.substr(colon + 1);
      if (std::find(reportFormats().begin(), reportFormats().end(), name) == reportFormats().end()) {
        std::cerr << "ptoverify: error: unknown --format '" << name << "'\n";
        return kExitInputError;
      }
      outputs.emplace_back(name, file);
    }
    if (outputs.empty()) outputs.emplace_back("text", "");
    size_t onStdout = 0;
    for (auto& o : outputs) onStdout += o.second.empty() || o.second == "-";
    if (onStdout > 1 && outputFile.empty()) {
      std::cerr << "ptoverify: error: " << onStdout
                << " formats would go to standard output, concatenated; give all but one a file (--format FMT:FILE)\n";
      return kExitInputError;
    }
    if (!outputFile.empty()) {
      size_t toStdout = 0;
      for (auto& o : outputs) toStdout += o.second.empty();
      if (toStdout != 1) {
        std::cerr << "ptoverify: error: --output needs exactly one --format without its own file\n";
        return kExitInputError;
      }
      for (auto& o : outputs)
        if (o.second.empty()) o.second = outputFile;
    }
    for (auto& o : outputs) req.recordApplicability |= o.first == "junit";  // JUnit omits rules that do not apply
    CheckResult result = runCheck(req);
    std::string root = findSourceRoot(req.paths, sourceRoot);
    bool baselineApplied = !baselinePath.empty();  // SARIF's baselineState: against a baseline or BASE
    if (!baselinePath.empty()) {
      std::string error;
      if (!applyBaseline(baselinePath, result, root, error)) {
        std::cerr << error << '\n';
        return kExitInputError;
      }
    }
    if (!diffRange.empty() || !changedLinesFile.empty()) {
      ChangedLines lines;
      std::string error;
      bool ok;
      if (!diffRange.empty()) {
        ok = changedLinesFromGit(diffRange, root, lines, error);
      } else {
        std::ifstream in(changedLinesFile);
        lines.root = root;
        ok = in && parseUnifiedDiff(in, lines, error);
        if (!in) error = "cannot read '" + changedLinesFile + "'";
      }
      Differential diff{
          &lines, FilterMode::Added,
          diffRange.empty() ? "the old side of " + changedLinesFile : diffRange.substr(0, diffRange.find(".."))};
      parseFilterMode(filterMode, diff.mode);
      size_t left = 0;
      if (ok) ok = keepNewFindings(diff, req, result, left, error);
      if (!ok) {
        std::cerr << "ptoverify: error: " << error << '\n';
        return kExitInputError;
      }
      if (left)
        std::cerr << "ptoverify: " << left << " new finding(s) away from the changed lines left out (--filter-mode "
                  << filterMode << "; nofilter reports them)\n";
      root = lines.root;
      baselineApplied = true;
    }
    ReportOptions ro;
    ro.sourceRoot = root;
    ro.sarifCategory = sarifCategory;
    ro.baselineApplied = baselineApplied;
    for (const auto& [name, file] : outputs)  // the outputs that leave findings out point at a complete one
      if ((name == "json" || name == "sarif" || name == "html" || name == "text") && !file.empty() && file != "-") {
        ro.fullReportHint = "the full report is " + reportFile(name, file);
        break;
      }
    ro.ruleGlobs = req.ruleGlobs;
    ro.helpUriBase = helpUriBase;
    for (const auto& [name, file] : outputs) {
      std::ofstream fileOut;
      if (!file.empty() && file != "-") {
        if (name == "html") {
          std::error_code ec;
          std::filesystem::create_directories(file, ec);
        }
        fileOut.open(reportFile(name, file));
        if (!fileOut) {
          std::cerr << "ptoverify: error: cannot write '" << file << "'\n";
          return kExitInputError;
        }
      }
      std::ostream& out = fileOut.is_open() ? static_cast<std::ostream&>(fileOut) : std::cout;
      if (name == "text") {
        const char* noColor = std::getenv("NO_COLOR");  // no-color.org: set and not empty
        bool useColor = !fileOut.is_open() && (color == "always" || (color == "auto" && isatty(STDOUT_FILENO) &&
                                                                    !(noColor && *noColor)));
        printText(result, out, useColor, quiet);
      } else {
        writeReport(name, result, out, ro);
      }
    }
    if (onStdout == 0 && outputFile.empty() && !quiet) {  // every report went to a file: say what and where
      printText(result, std::cout, false, false, true);
      for (const auto& [name, file] : outputs)
        std::cout << "ptoverify: " << name << " report written to " << reportFile(name, file) << '\n';
    }
    std::string dotError;
    if (!witnessDot.empty() && !writeWitnessDots(result, witnessDot, dotError)) {
      std::cerr << dotError << '\n';
      return kExitInputError;
    }
    return result.exitCode();
  }
  if (*merge) return mergeSarif(mergeInputs, mergeOutput);
  if (*audit) {
    req.ruleGlobs = splitGlobs(auditRules);
    if (!req.ruleGlobs.empty()) req.fromCli.insert("rules");
    return runAudit(req, auditFormat, std::cout);
  }
  if (*isaCmd) {
    if (isaDeclarations) std::cout << ptoisa::preludeDeclarations();
    else
      for (const auto& in : ptoisa::all()) std::cout << ptoisa::describe(in) << '\n';
    return 0;
  }
  if (*modelCmd) {
    return runModelDump(modelPaths, frontendOptions(req), std::cout);
  }
  if (*config) {
    std::string path = !req.configPath.empty() ? req.configPath : findConfig(configFor);
    Config c;
    std::string error;
    if (!path.empty() && !loadConfig(path, c, error)) {
      std::cerr << error << '\n';
      return kExitInputError;
    }
    std::cout << dumpConfig(c);
    return 0;
  }
  if (*baseline) {
    CheckResult result = runCheck(req);
    if (!writeBaseline(result, baselineOut, findSourceRoot(req.paths, sourceRoot))) {
      std::cerr << "ptoverify: error: cannot write '" << baselineOut << "'\n";
      return kExitInputError;
    }
    size_t n = 0;
    for (const auto& f : result.files) n += f.findings.size();
    std::cout << "ptoverify: baseline of " << n << " finding(s) written to " << baselineOut << '\n';
    return result.exitCode() == kExitInputError ? kExitInputError : kExitClean;
  }
  if (*rules) {
    if (rulesFormat == "json") {
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
  if (*explain) {
    const Rule* r = findRule(explainId);
    if (!r) {
      std::cerr << "ptoverify: error: unknown rule '" << explainId << "' (see 'ptoverify rules')\n";
      return kExitInputError;
    }
    std::string doc = ruleDoc(explainId);
    if (doc.empty()) doc = r->info().summary + "\n";
    std::cout << doc << optionsText(*r);
    return 0;
  }
  if (*corpus) return runCorpus(corpusPaths, req, corpusReport, std::cout);
  if (*mutate) {
    if (listOperators) {
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
    if (mreq.paths.empty()) {
      std::cerr << "ptoverify: error: mutate needs at least one path\n";
      return kExitInputError;
    }
    mreq.operators = splitGlobs(rawOperators);
    for (const auto& m : rawMinimums) {
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
      mreq.perOperatorMinKillRate[m.substr(0, eq)] = pct;
    }
    return runMutate(mreq, std::cout);
  }
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
  // Each kernel that asks Z3 gets a fresh context (docs/solver.md), which allocates several MB
  // and frees them again. By default glibc hands such blocks back to the kernel and maps them
  // anew, page faults included: a context cost 2.3 ms, kept in the heap 0.8 ms.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // A worker thread's heap grows by mprotect, page by page up to its peak: 170 system calls
  // (and TLB shootdowns) over a 150-file run. Growing 16 MB at a time reserves address space
  // only; pages still come when touched.
  mallopt(M_TOP_PAD, 16 << 20);
  // Nothing here writes standard output through C stdio, so std::cout can keep its own buffer:
  // in step with stdio it wrote each piece of each report line separately. std::cerr is tied
  // to std::cout, so the two stay in order. A terminal keeps stdio's line buffering.
  if (!isatty(STDOUT_FILENO)) std::ios::sync_with_stdio(false);
#ifdef PTOVERIFY_WITH_CPP
  ptov::cpp::registerFrontend();
#endif
  try {
    int rc = run(argc, argv);
#ifdef PTOVERIFY_FAST_EXIT
    // The answer is written: the process ends without tearing down what it holds (static
    // objects, each thread's cached blocks and large-stack thread), as clang's -disable-free
    // does; the kernel frees it all at once. Nothing is left to write but the streams' buffers.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(rc);
#endif
    return rc;
  } catch (const ptov::NeedsCppFrontend&) {
    return runWithCppFrontend(argv);
  } catch (const std::exception& e) {
    std::cerr << "ptoverify: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "ptoverify: internal error\n";
  }
  return 70;
}
