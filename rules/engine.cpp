#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>

#include "rules/rule.h"

namespace ptov {

const std::map<std::string, std::string>& ruleDocs();  // generated from docs/rules/*.md

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

bool parseSeverity(const std::string& s, Severity& out) {
  if (s == "note") out = Severity::Note;
  else if (s == "warning") out = Severity::Warning;
  else if (s == "error") out = Severity::Error;
  else return false;
  return true;
}

Finding& RuleContext::report(const SourceLoc& loc, const std::string& message) {
  return report(info_.severity, loc, message);
}

Finding& RuleContext::report(Severity sev, const SourceLoc& loc, const std::string& message) {
  Finding f;
  f.ruleId = info_.id;
  f.severity = sev;
  f.loc = loc;
  f.message = message;
  sink_.push_back(std::move(f));
  return sink_.back();
}

const char* gradeName(ReviewGrade g) {
  switch (g) {
    case ReviewGrade::Blocker: return "Blocker";
    case ReviewGrade::Major: return "Major";
    case ReviewGrade::Minor: return "Minor";
  }
  return "Blocker";
}

Finding& RuleContext::report(ReviewGrade grade, const SourceLoc& loc, const std::string& message,
                             const std::string& fix) {
  Severity sev = grade == ReviewGrade::Blocker ? Severity::Error
                 : grade == ReviewGrade::Major ? Severity::Warning
                                               : Severity::Note;
  Finding& f = report(sev, loc, message);
  f.grade = gradeName(grade);
  f.fix = fix;
  return f;
}

const char* findingLevel(const Finding& f) { return f.unknown ? "unknown" : severityName(f.severity); }

Finding* RuleContext::reportVerdict(const Verdict& v, const SourceLoc& loc, const std::string& message) {
  if (v.kind == Verdict::Kind::Proved) return nullptr;
  if (v.kind == Verdict::Kind::Unknown) {
    Finding& f = report(Severity::Warning, loc, "could not prove: " + message + " (" + v.reason + ")");
    f.unknown = true;
    return &f;
  }
  Finding& f = report(loc, message);
  f.witness = std::make_shared<Witness>(v.witness);
  return &f;
}

std::string ruleDoc(const std::string& id) {
  auto it = ruleDocs().find(id);
  return it == ruleDocs().end() ? std::string() : it->second;
}

bool globMatches(const std::string& glob, const std::string& name) {
  // Iterative: on a mismatch, back up to the last star only (time |glob| x |name|, whatever the
  // number of stars; the recursive form was exponential in consecutive ones).
  size_t g = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      mark = n;
    } else if (g < glob.size() && glob[g] == name[n]) {
      ++g;
      ++n;
    } else if (star != std::string::npos) {
      g = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}


bool anyRuleEnabled(const std::vector<std::string>& globs) {
  for (const auto& r : allRules())
    if (ruleEnabled(r->info().id, globs)) return true;
  return false;
}

bool ruleEnabled(const std::string& id, const std::vector<std::string>& globs) {
  if (globs.empty()) return true;
  bool enabled = false;
  bool anyPositive = false;
  for (const auto& g : globs) {
    if (!g.empty() && g[0] == '-') {
      if (globMatches(g.substr(1), id)) enabled = false;
    } else {
      anyPositive = true;
      if (globMatches(g, id)) enabled = true;
    }
  }
  if (!anyPositive) {
    // Only removals: start from every rule.
    enabled = true;
    for (const auto& g : globs)
      if (globMatches(g.substr(1), id)) enabled = false;
  }
  return enabled;
}

RuleContext::RuleContext(const Rule& rule, const Kernel& kernel, std::vector<Finding>& sink, ProofContext& proofs,
                         const RuleSettings* settings)
    : rule_(rule), info_(rule.info()), kernel_(kernel), sink_(sink), proofs_(proofs), settings_(settings) {}

int64_t RuleContext::option(const std::string& name) const {
  if (settings_)
    if (auto rule = settings_->options.find(info_.id); rule != settings_->options.end())
      if (auto it = rule->second.find(name); it != rule->second.end()) return it->second;
  for (const RuleOption& o : rule_.options())
    if (o.name == name) return o.defaultFor(kernel_.arch);
  throw std::logic_error("rule " + info_.id + " reads option '" + name + "' it does not declare");
}

namespace {
// Code the front end skipped may hold exactly what a finding says is missing (the set a wait
// waits for): the rule's findings on such a kernel are `unknown`, not errors.
void demoteOverSkippedCode(const Kernel& k, const Rule& rule, std::vector<Finding>& findings, size_t firstOfRule) {
  const ModelGap* skipped = nullptr;
  for (const auto& g : k.gaps)
    if (g.kind == ModelGap::Kind::SkippedCode && rule.affectedBy(g.kind)) skipped = skipped ? skipped : &g;
  if (!skipped) return;
  for (size_t i = firstOfRule; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (f.unknown) continue;
    f.unknown = true;
    f.severity = Severity::Warning;
    f.message = "could not prove: " + f.message + " (" + skipped->what + " at line " + std::to_string(skipped->loc.line) +
                " was not modelled)";
    f.witness.reset();
  }
}

// A rule that found nothing on a kernel with gaps in its facts has not shown it correct: one
// `unknown` finding says why.
void reportGaps(const Kernel& k, const KernelTraits& traits, const Rule& rule, const RuleSettings* settings,
                std::vector<Finding>& findings, size_t firstOfRule) {
  for (size_t i = firstOfRule; i < findings.size(); ++i)
    if (!findings[i].unknown && findings[i].severity == Severity::Error) return;
  std::vector<const ModelGap*> hits;
  for (const auto& g : k.gaps)
    if (rule.affectedBy(g.kind)) hits.push_back(&g);
  if (hits.empty() || !rule.appliesTo(k, traits, settings)) return;
  Finding f;
  f.ruleId = rule.info().id;
  f.severity = Severity::Warning;
  f.unknown = true;
  f.loc = hits.front()->loc;
  f.message = "not fully checked: " + std::to_string(hits.size()) + " construct(s) in '" + k.name +
              "' were not modelled, first: " + gapKindName(hits.front()->kind) + " " + hits.front()->what;
  for (size_t i = 1; i < hits.size() && i < 4; ++i)
    f.notes.push_back({hits[i]->loc, std::string("also not modelled: ") + gapKindName(hits[i]->kind) + " " + hits[i]->what});
  findings.push_back(std::move(f));
}
}  // namespace

// Runs `body` on a thread with a 512 MB stack (committed only as used) and waits for it. The
// proofs walk expressions recursively, and an event level is a chain as long as the kernel has
// event ops (up to 20,000): deeper than the 8 MB of an ordinary thread holds under ASan. Each
// calling thread keeps one such thread: starting one per kernel (and mapping its stack) was a
// sixth of a run over 3,000 small .pto files.
namespace {
constexpr size_t kLargeStackBytes = size_t{512} << 20;

class LargeStackThread {
 public:
  LargeStackThread() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kLargeStackBytes);
    started_ = pthread_create(&thread_, &attr, &LargeStackThread::loop, this) == 0;
    pthread_attr_destroy(&attr);
  }
  ~LargeStackThread() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    pthread_join(thread_, nullptr);
  }
  void run(const std::function<void()>& body) {
    if (!started_) return body();  // no thread to be had: this one's stack, as before
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &body;
    error_ = nullptr;
    wake_.notify_all();
    wake_.wait(lock, [&] { return job_ == nullptr; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  static void* loop(void* self) {
    auto* t = static_cast<LargeStackThread*>(self);
    std::unique_lock<std::mutex> lock(t->mutex_);
    for (;;) {
      t->wake_.wait(lock, [&] { return t->stop_ || t->job_ != nullptr; });
      if (t->job_ == nullptr) return nullptr;  // stopping
      const std::function<void()>* job = t->job_;
      lock.unlock();
      std::exception_ptr error;
      try {
        (*job)();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      t->error_ = error;
      t->job_ = nullptr;
      t->wake_.notify_all();
    }
  }

  pthread_t thread_{};
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  bool stop_ = false;
};
}  // namespace

// Set while a thread runs on a large stack, so work nested in it runs where it is.
static thread_local bool onLargeStackNow = false;

void onLargeStack(const std::function<void()>& body) {
  if (onLargeStackNow) return body();
  thread_local LargeStackThread worker;
  worker.run([&] {
    onLargeStackNow = true;
    body();
    onLargeStackNow = false;
  });
}

namespace {
// Threads that run the tasks of onLargeStacks while its caller waits. They are made once, each
// with the large stack, and wait for the next job: starting two threads per call (one for -j,
// one for its stack) and ending them again was on the critical path of every run, and the
// caller taking part needed a large-stack thread of its own too. The pool is never destroyed;
// at exit its threads are idle on `wake_`. A task must not call onLargeStacks.
class HelperPool {
 public:
  void run(size_t count, unsigned helpers, const std::function<void(size_t)>& task) {
    std::lock_guard<std::mutex> oneJob(jobMutex_);  // jobs from different callers take turns
    std::unique_lock<std::mutex> lock(mutex_);
    while (started_ < helpers && start()) ++started_;
    job_ = Job{&task, count, std::min(helpers, started_)};
    next_ = 0;
    running_ = job_.helpers;
    error_ = nullptr;
    ++generation_;
    wake_.notify_all();
    lock.unlock();
    std::exception_ptr mine;
    if (job_.helpers == 0) {  // no thread to be had: the caller does it all, on its own large stack
      try {
        onLargeStack([&] { work(); });
      } catch (...) {
        mine = std::current_exception();
      }
    }
    lock.lock();
    done_.wait(lock, [&] { return running_ == 0; });
    std::exception_ptr error = mine ? mine : error_;
    job_ = Job{};
    if (error) std::rethrow_exception(error);
  }

 private:
  struct Job {
    const std::function<void(size_t)>* task = nullptr;
    size_t count = 0;
    unsigned helpers = 0;  // helpers 0 .. helpers - 1 take part
  };

  void work() {
    for (size_t i = next_++; i < job_.count; i = next_++) (*job_.task)(i);
  }

  bool start() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kLargeStackBytes);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    auto* self = new Start{this, started_, generation_};  // the job it is made for comes after
    pthread_t thread;
    bool ok = pthread_create(&thread, &attr, &HelperPool::loop, self) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) delete self;
    return ok;
  }

  struct Start {
    HelperPool* pool;
    unsigned index;
    uint64_t seen;  // the last generation before the thread existed
  };

  static void* loop(void* arg) {
    Start start = *static_cast<Start*>(arg);
    delete static_cast<Start*>(arg);
    HelperPool* pool = start.pool;
    const unsigned index = start.index;
    onLargeStackNow = true;  // what runs here is on a large stack already
    std::unique_lock<std::mutex> lock(pool->mutex_);
    for (uint64_t seen = start.seen;;) {
      pool->wake_.wait(lock, [&] { return pool->generation_ != seen; });
      seen = pool->generation_;
      if (index >= pool->job_.helpers) continue;
      lock.unlock();
      std::exception_ptr error;
      try {
        pool->work();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (error && !pool->error_) pool->error_ = error;
      if (--pool->running_ == 0) pool->done_.notify_all();
    }
  }

  std::mutex jobMutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job job_;
  std::atomic<size_t> next_{0};
  unsigned started_ = 0;
  unsigned running_ = 0;
  uint64_t generation_ = 0;
  std::exception_ptr error_;
};
}  // namespace

void onLargeStacks(size_t count, unsigned threads, const std::function<void(size_t)>& task) {
  static HelperPool& pool = *new HelperPool;  // never destroyed: see HelperPool
  pool.run(count, static_cast<unsigned>(std::min<size_t>(threads, count)), task);
}

static std::vector<Finding> runRulesHere(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver,
                                         const RuleSettings* settings);

std::vector<Finding> runRules(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver,
                              const RuleSettings* settings) {
  std::vector<Finding> findings;
  onLargeStack([&] { findings = runRulesHere(kernel, globs, solver, settings); });
  return findings;
}

static std::vector<Finding> runRulesHere(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver,
                                         const RuleSettings* settings) {
  static Solver defaultSolver;
  Solver& s = solver ? *solver : defaultSolver;
  s.startKernel();
  ProofContext proofs(kernel, s);
  std::vector<Finding> findings;
  // Read only by the gap reports: one op walk per kernel with gaps, not one per rule.
  const KernelTraits traits = kernel.gaps.empty() ? KernelTraits{} : kernelTraits(kernel);
  for (const auto& rule : allRules()) {
    if (!ruleEnabled(rule->info().id, globs)) continue;
    RuleContext ctx(*rule, kernel, findings, proofs, settings);
    size_t first = findings.size();
    rule->check(kernel, ctx);
    if (!kernel.gaps.empty()) {
      demoteOverSkippedCode(kernel, *rule, findings, first);
      reportGaps(kernel, traits, *rule, settings, findings, first);
    }
  }
  for (auto& f : findings) f.kernel = kernel.name;
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.col < b.loc.col;
  });
  // A rule may reach the same op on several paths; report it once.
  findings.erase(std::unique(findings.begin(), findings.end(),
                             [](const Finding& a, const Finding& b) {
                               return a.ruleId == b.ruleId && a.loc.line == b.loc.line &&
                                      a.loc.col == b.loc.col && a.message == b.message;
                             }),
                 findings.end());
  return findings;
}

}  // namespace ptov
