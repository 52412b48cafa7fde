#include "cli/check.h"

#include "analyzer/hash.h"
#include "analyzer/model/cpp_facts.h"
#include "cli/config.h"
#include "cli/link_groups.h"
#include "cli/report/fingerprint.h"
#include "cli/suppressions.h"
#include "cli/threads.h"

#include <filesystem>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

namespace ptov {

size_t FileResult::suppressedCount() const {
  return std::count_if(hidden.begin(), hidden.end(), [](const HiddenFinding& h) { return h.inSource; });
}

size_t FileResult::baselinedCount() const { return hidden.size() - suppressedCount() - atBaseCount(); }

size_t FileResult::atBaseCount() const {
  return std::count_if(hidden.begin(), hidden.end(), [](const HiddenFinding& h) { return h.atBase; });
}

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
// One solver (one Z3 context) per set of solver options on each -j thread; answers are shared
// through the process-wide answer cache.
Solver& solverFor(const SolverOptions& o) {
  thread_local std::map<std::string, std::unique_ptr<Solver>> solvers;  // Z3 contexts are per thread
  std::string key = std::to_string(o.queryTimeoutMs) + "/" + std::to_string(o.kernelBudgetMs) + "/" + o.cacheDir;
  for (const auto& [name, range] : o.paramRanges)
    key += "/" + name + "=" + std::to_string(range.first) + ":" + std::to_string(range.second);
  auto& s = solvers[key];
  if (!s) s = std::make_unique<Solver>(o);
  return *s;
}

// A C++ kernel modelled in both core views: a finding both views give is reported once; one that
// only one view gives says which.
void mergeCoreViews(const std::vector<Kernel>& kernels, std::vector<std::vector<Finding>>& findings) {
  auto same = [](const Finding& a, const Finding& b) {
    return a.ruleId == b.ruleId && a.unknown == b.unknown && a.loc.file == b.loc.file && a.loc.line == b.loc.line &&
           a.loc.col == b.loc.col && a.message == b.message;
  };
  for (size_t i = 0; i < kernels.size(); ++i) {
    for (size_t j = i + 1; j < kernels.size(); ++j) {
      const Kernel &a = kernels[i], &b = kernels[j];
      if (!areViewTwins(a, b)) continue;
      std::vector<Finding>& fa = findings[i];
      std::vector<Finding>& fb = findings[j];
      std::vector<bool> shared(fa.size(), false);
      std::vector<Finding> onlyB;
      for (auto& x : fb) {
        auto it = std::find_if(fa.begin(), fa.end(), [&](const Finding& y) { return same(x, y); });
        if (it != fa.end()) shared[static_cast<size_t>(it - fa.begin())] = true;
        else onlyB.push_back(std::move(x));
      }
      for (size_t k = 0; k < fa.size(); ++k)
        if (!shared[k]) fa[k].message += " (" + std::string(a.view == CoreView::Aic ? "AIC" : "AIV") + " view)";
      for (auto& x : onlyB) x.message += " (" + std::string(b.view == CoreView::Aic ? "AIC" : "AIV") + " view)";
      fb = std::move(onlyB);
    }
  }
}

FileResult checkLoaded(LoadedFile& loaded, const CheckRequest& req) {
  FileResult r;
  r.path = loaded.path;
  r.inputDiagnostics = loaded.diagnostics;
  r.coverage = loaded.coverage;
  r.sync = {loaded.sync.written, loaded.sync.modelled, {}};
  r.notModelled = loaded.sync.missed;
  for (const auto& k : loaded.kernels) {
    r.kernelNames.push_back(k.name);
    r.kernelSync.push_back({coreViewName(k.view), k.cpp ? k.cpp->syncWritten : 0, k.cpp ? k.cpp->syncModelled : 0});
    r.notModelled.insert(r.notModelled.end(), k.gaps.begin(), k.gaps.end());
    std::set<std::string> applicable;
    std::map<std::string, std::string> notChecked;
    const KernelTraits traits = kernelTraits(k);
    for (const auto& rule : allRules()) {
      const std::string& id = rule->info().id;
      if (!ruleEnabled(id, req.ruleGlobs)) continue;
      // Applicability is asked only where it is used.
      std::string why = rule->notChecked(k);
      bool asked = req.recordApplicability || !why.empty();
      if (!asked || !rule->appliesTo(k, traits, &req.ruleSettings)) continue;
      if (req.recordApplicability) applicable.insert(id);
      if (!why.empty()) notChecked[id] = why;
    }
    r.notChecked.push_back(std::move(notChecked));
    r.linkedLaunches.push_back(k.launches.size());
    if (req.recordApplicability) r.applicableRules.push_back(std::move(applicable));
  }
  Solver& solver = solverFor(req.solver);
  std::vector<std::vector<Finding>> perKernel;
  for (const auto& k : loaded.kernels) {
    auto f = runRules(k, req.ruleGlobs, &solver, &req.ruleSettings);
    for (auto& x : f) {
      auto o = req.severityOverrides.find(x.ruleId);
      if (o != req.severityOverrides.end() && !x.unknown) x.severity = o->second;
    }
    perKernel.push_back(std::move(f));
  }
  mergeCoreViews(loaded.kernels, perKernel);
  for (auto& f : perKernel)
    r.findings.insert(r.findings.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
  return r;
}

}  // namespace

FrontendOptions frontendOptions(const CheckRequest& req) {
  FrontendOptions fo;
  fo.defaultArch = req.arch;
  fo.compileCommandsDir = req.compileCommandsDir;
  fo.extraCompilerArgs = req.compilerArgs;
  fo.inputFiles = req.inputFiles;
  fo.mirrorOf = req.mirrorOf;
  fo.mirrorAt = req.mirrorAt;
  fo.viewsSideBySide = req.spareThread;
  return fo;
}

namespace {

// One input, read and modelled, before the rules run (inputs are linked in between).
struct LoadedInput {
  LoadedFile file;
  std::string text;
};

LoadedInput loadInput(const std::string& path, const CheckRequest& req) {
  LoadedInput in;
  std::string error;
  std::optional<std::string> text = readRegularFile(path, error);
  if (!text) {
    in.file.path = path;
    in.file.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1}, error});
    return in;
  }
  in.text = std::move(*text);
  in.file = loadText(path, in.text, frontendOptions(req));
  return in;
}

// A --param-range name must name something the checked kernels have: a scalar parameter (%n
// or n), a C++ wrapper's scalar (by its variable or as args[i]), or block_num. A misspelt name
// would otherwise bound nothing, silently. "" when every name is known.
std::string unknownParamRange(const CheckRequest& req, const std::vector<LoadedInput>& loaded) {
  std::set<std::string> known{"block_num"};
  for (const auto& in : loaded)
    for (const auto& k : in.file.kernels) {
      for (const auto& p : k.params)
        if (!p.isPointer) known.insert(!p.name.empty() && p.name[0] == '%' ? p.name.substr(1) : p.name);
      if (k.cpp)
        for (const auto& u : k.cpp->unpacks)
          if (!u.tensor && u.index) {
            known.insert(argsSlot(*u.index));
            if (!u.var.empty()) known.insert(u.var);
          }
    }
  for (const auto& [name, range] : req.solver.paramRanges) {
    std::string bare = !name.empty() && name[0] == '%' ? name.substr(1) : name;
    if (known.count(bare)) continue;
    std::string list;
    for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
    return "ptoverify: error: --param-range '" + name + "' names no scalar of the checked kernels (known: " + list + ")";
  }
  return "";
}

FileResult checkInput(LoadedInput& in, const CheckRequest& req) {
  FileResult r = checkLoaded(in.file, req);
  applySuppressions(in.text, r);
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  return r;
}

// One input on its own: linked only with itself (its own launches), then checked.
FileResult checkAlone(LoadedInput in, const CheckRequest& req) {
  std::vector<LoadedFile*> files{&in.file};
  linkInputs(files);
  return checkInput(in, req);
}
}  // namespace

FileResult checkFile(const std::string& path, const CheckRequest& req) { return checkAlone(loadInput(path, req), req); }

FileResult checkText(const std::string& path, const std::string& text, const CheckRequest& req) {
  return checkAlone(LoadedInput{loadText(path, text, frontendOptions(req)), text}, req);
}

// The request for one input: the configuration's values where the command line gave none.
static CheckRequest withConfig(const CheckRequest& req, const Config& c) {
  CheckRequest r = req;
  auto cli = [&](const char* name) { return req.fromCli.count(name) > 0; };
  if (c.rules && !cli("rules")) r.ruleGlobs = *c.rules;
  if (c.arch && !cli("arch")) r.arch = *c.arch;
  if (c.failOn && !cli("fail-on")) r.failOn = *c.failOn;
  if (c.timeoutMs && !cli("solver-timeout")) r.solver.queryTimeoutMs = *c.timeoutMs;
  if (c.kernelBudgetMs && !cli("kernel-budget")) r.solver.kernelBudgetMs = *c.kernelBudgetMs;
  if (c.cacheDir && !cli("cache-dir")) r.solver.cacheDir = *c.cacheDir;
  if (!cli("param-range"))
    for (const auto& [name, range] : c.paramRanges) r.solver.paramRanges[name] = range;
  r.severityOverrides = c.severity;
  r.ruleSettings.options = c.ruleOptions;
  r.ruleSettings.hostRead = c.hostRead;
  return r;
}

// --config, else the .ptoverify.yaml above `path` (when config files are read), else "".
static std::string configPathFor(const std::string& path, const CheckRequest& req) {
  return !req.configPath.empty() ? req.configPath : req.useConfigFiles ? findConfigOfFile(path) : "";
}

CheckRequest requestFor(const std::string& path, const CheckRequest& req, std::string& error) {
  std::string cfgPath = configPathFor(path, req);
  if (cfgPath.empty()) return req;
  Config c;
  if (!loadConfig(cfgPath, c, error)) return req;
  return withConfig(req, c);
}

bool inShard(const std::string& path, int shard, int shards) {
  return static_cast<int>(fnv1a(path) % static_cast<uint64_t>(shards)) == shard - 1;
}

namespace {

// The files a run checks, in input order. Another shard's .pto / .mlir is loaded for linking
// only; another shard's C++ is not loaded at all.
struct CheckWork {
  // Each file with its request (set on the thread that checks it: FileRequests).
  std::vector<std::pair<std::string, std::shared_ptr<const CheckRequest>>> files;
  std::vector<size_t> inputIndex;  // each file's place among every input of the run
  std::vector<bool> linkOnly;
  std::shared_ptr<std::set<std::string>> inputFiles;  // the inputs, normalised (C++ runs only)
  std::shared_ptr<CheckRequest> plainReq;             // the request of files without a configuration
};

CheckWork planWork(const CheckRequest& req, std::vector<std::string>& problems) {
  CheckWork work;
  std::vector<std::string> inputs = collectInputs(req.paths, problems);
  // A shard is a set of link groups (cli/link_groups.h), so it links what one full run links.
  std::vector<std::string> leaders = req.shards > 1 ? linkGroupLeaders(inputs) : inputs;
  // The C++ front end asks whether an included file is an input; nothing else needs the set.
  work.inputFiles = std::make_shared<std::set<std::string>>();
  if (std::any_of(inputs.begin(), inputs.end(), [](const std::string& in) { return isCppInput(in); }))
    for (const auto& in : inputs) work.inputFiles->insert(normalisedPath(in));
  work.plainReq = std::make_shared<CheckRequest>(req);
  work.plainReq->inputFiles = work.inputFiles;
  work.plainReq->spareThread = req.jobs > inputs.size();
  for (size_t index = 0; index < inputs.size(); ++index) {
    const std::string& path = inputs[index];
    bool mine = req.shards <= 1 || inShard(leaders[index], req.shard, req.shards);
    if (!mine && isCppInput(path)) continue;
    work.linkOnly.push_back(!mine);
    work.inputIndex.push_back(index);
    work.files.emplace_back(path, nullptr);
  }
  return work;
}

// Each file's request is settled on the thread that checks it (finding the configurations
// was a twentieth of a run over small .pto files, all of it before any file was read): the
// configuration that applies, read once per configuration file by whichever thread asks first.
// Files share one request per configuration (a request holds the timing tables and more:
// copying it per file was a tenth of a run over small .pto files).
class FileRequests {
 public:
  FileRequests(const CheckRequest& req, CheckWork& work) : req_(req), work_(work), configOf_(work.files.size()) {}

  void settle(size_t i) {
    std::string cfgPath = configPathFor(work_.files[i].first, req_);
    std::lock_guard<std::mutex> lock(mutex_);
    configOf_[i] = cfgPath;
    work_.files[i].second = work_.plainReq;
    if (cfgPath.empty()) return;
    auto it = configs_.find(cfgPath);
    if (it == configs_.end()) {
      Config c;
      std::string error;
      bool ok = loadConfig(cfgPath, c, error);
      if (!ok) configErrors_[cfgPath] = error;
      it = configs_.emplace(cfgPath, ok ? std::optional<Config>(c) : std::nullopt).first;
    }
    if (!it->second) return;
    auto& shared = requestFor_[cfgPath];
    if (!shared) {
      auto withFile = std::make_shared<CheckRequest>(withConfig(req_, *it->second));
      withFile->inputFiles = work_.inputFiles;
      withFile->spareThread = work_.plainReq->spareThread;
      shared = withFile;
    }
    work_.files[i].second = shared;
  }

  // In input order, as one thread would have met them: each broken configuration reported
  // once, and the run's one --fail-on, the command line's, else the first configuration's.
  void report(CheckResult& result) {
    bool failOnSet = req_.fromCli.count("fail-on") > 0;
    std::set<std::string> reported;
    for (const std::string& cfgPath : configOf_) {
      if (cfgPath.empty() || !reported.insert(cfgPath).second) continue;
      const std::optional<Config>& c = configs_[cfgPath];
      if (!c) result.problems.push_back(configErrors_[cfgPath]);
      if (c && !failOnSet && c->failOn) {
        result.failOn = *c->failOn;
        failOnSet = true;
      }
    }
  }

 private:
  const CheckRequest& req_;
  CheckWork& work_;
  std::mutex mutex_;
  std::map<std::string, std::optional<Config>> configs_;                 // path -> parsed (nullopt: broken)
  std::map<std::string, std::shared_ptr<const CheckRequest>> requestFor_;  // config path -> request
  std::map<std::string, std::string> configErrors_;                      // config path -> why it is broken
  std::vector<std::string> configOf_;                                    // each file's config path
};

// "ptoverify: N/M files" on a terminal's stderr once a run has taken two seconds.
class Progress {
 public:
  Progress(const CheckRequest& req, size_t total)
      : total_(total), show_(req.progress && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}

  void fileDone() {
    size_t count = ++done_;
    if (!show_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (s > 2.0) std::cerr << "\rptoverify: " << count << "/" << total_ << " files" << std::flush;
  }

  void clear() {
    if (show_ && std::chrono::steady_clock::now() - start_ > std::chrono::seconds(2)) std::cerr << "\r\033[K";
  }

 private:
  size_t total_;
  bool show_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<size_t> done_{0};
  std::mutex mutex_;
};

// What the two ways of checking share: the work, its requests, the threads and the progress line.
struct CheckRun {
  CheckWork& work;
  FileRequests& requests;
  Progress& progress;
  unsigned threads;
  void parallel(size_t count, const std::function<void(size_t)>& task) const { runOnThreads(count, threads, task); }
};

// A .pto or .mlir kernel links only to C++ inputs (and to its own file's MIX halves), so a
// run without C++ checks each file on its own as soon as it is read, and frees it: the heap
// holds one file per thread instead of the whole tree (fresh pages for every model were a
// tenth of a run over 3,000 files). Another shard's files are then needed for nothing.
void checkEachAlone(CheckRun& run, CheckResult& result) {
  CheckWork& work = run.work;
  run.parallel(work.files.size(), [&](size_t i) {
    run.requests.settle(i);
    if (!work.linkOnly[i]) {
      const CheckRequest& fileReq = *work.files[i].second;
      result.files[i] = checkAlone(loadInput(work.files[i].first, fileReq), fileReq);
      result.files[i].inputIndex = work.inputIndex[i];
      assignFingerprints(result.files[i]);  // here, not after the threads: it is per file
    }
    run.progress.fileDone();
  });
  run.requests.report(result);
}

// With C++ among the inputs, every input is modelled first, then the inputs are linked
// (launches from orchestration code, .pto kernels beside the C++ generated from them), then
// the rules run. False when a --param-range names nothing (the problem is in `result`).
bool checkLinked(const CheckRequest& req, CheckRun& run, CheckResult& result) {
  CheckWork& work = run.work;
  std::vector<LoadedInput> loaded(work.files.size());
  // Sources first: a header input that one of them includes is modelled there (linkInputs), so
  // it is not parsed on its own at all (each parse of a real tree's header costs a whole TU).
  std::vector<size_t> order, headers;
  for (size_t i = 0; i < work.files.size(); ++i) (isCppHeaderPath(work.files[i].first) ? headers : order).push_back(i);
  auto loadSome = [&](const std::vector<size_t>& which) {
    run.parallel(which.size(), [&](size_t j) {
      run.requests.settle(which[j]);
      loaded[which[j]] = loadInput(work.files[which[j]].first, *work.files[which[j]].second);
    });
  };
  loadSome(order);
  std::set<std::string> includer;  // what the sources include
  for (size_t i : order) includer.insert(loaded[i].file.includedFiles.begin(), loaded[i].file.includedFiles.end());
  std::vector<size_t> alone;
  for (size_t i : headers) {
    if (!includer.count(normalisedPath(work.files[i].first))) alone.push_back(i);
    loaded[i].file.path = work.files[i].first;  // an included one gets its note in linkInputs
  }
  loadSome(alone);
  for (size_t i : headers)
    if (!work.files[i].second) run.requests.settle(i);  // an included header: modelled where it is included
  run.requests.report(result);
  std::vector<LoadedFile*> files;
  for (auto& l : loaded) files.push_back(&l.file);
  linkInputs(files);
  if (req.fromCli.count("param-range")) {
    std::string unknown = unknownParamRange(req, loaded);
    if (!unknown.empty()) {
      result.problems.push_back(unknown);
      return false;
    }
  }
  run.parallel(work.files.size(), [&](size_t i) {
    if (!work.linkOnly[i]) {
      result.files[i] = checkInput(loaded[i], *work.files[i].second);
      result.files[i].inputIndex = work.inputIndex[i];
      assignFingerprints(result.files[i]);
    }
    run.progress.fileDone();
  });
  return true;
}

}  // namespace

CheckResult runCheck(const CheckRequest& req) {
  CheckResult result;
  result.failOn = req.failOn;
  result.strict = req.strict;
  CheckWork work = planWork(req, result.problems);
  FileRequests requests(req, work);
  // -j N: files on N threads; results land in input order, so the output does not depend on N.
  result.files.resize(work.files.size());
  Progress progress(req, work.files.size());
  unsigned threads = std::max(1u, std::min<unsigned>(req.jobs, static_cast<unsigned>(work.files.size())));
  CheckRun run{work, requests, progress, threads};
  size_t rejectedBefore = globalSolverStats().cacheRejected;
  bool independent = !req.fromCli.count("param-range") &&
                     std::none_of(work.files.begin(), work.files.end(), [](const auto& w) { return isCppInput(w.first); });
  if (independent) checkEachAlone(run, result);
  else if (!checkLinked(req, run, result)) return result;
  progress.clear();
  std::vector<FileResult> checked;
  for (size_t i = 0; i < work.files.size(); ++i)
    if (!work.linkOnly[i]) checked.push_back(std::move(result.files[i]));
  result.files = std::move(checked);
  result.untrustedCacheEntries = globalSolverStats().cacheRejected - rejectedBefore;
  return result;
}

}  // namespace ptov
