#include "solver/solver.h"

#include "solver/disk_cache.h"
#include "solver/sample_points.h"
#include "solver/z3_session.h"

#include <algorithm>

#include <chrono>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace ptov {

SolverStats& globalSolverStats() {
  static SolverStats stats;
  return stats;
}

namespace {

// Query fingerprint -> answer, shared by every Solver of the process.
std::unordered_map<std::string, SatAnswer>& answerCache() {
  static std::unordered_map<std::string, SatAnswer> cache;
  return cache;
}

}  // namespace

// Guards the answer cache and the global statistics: -j checks files on several threads, each
// with its own Solver and Z3 context.
std::mutex& sharedStateMutex() {
  static std::mutex m;
  return m;
}

void clearSolverCache() {
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  answerCache().clear();
}

namespace {


}  // namespace

// The Z3 context is made on the first query that needs it: most kernels need none.
Solver::Solver(SolverOptions options) : options_(std::move(options)) {}
Solver::~Solver() = default;

// Each kernel gets a fresh Z3 context. How long Z3 takes on a query depends on what its context
// solved before; with one context per thread, a kernel's queries ran after whatever kernels -j
// happened to give that thread, and one barrier-arrival query then sometimes took over 2 s (a
// timeout) where it takes milliseconds in a fresh process. Per kernel, the history is the
// kernel's own, as with -j 1; the context costs about 2 ms, only for kernels that ask Z3.
void Solver::startKernel() {
  kernelStart_ = std::chrono::steady_clock::now();
  keyNodesAfterBudget_ = 0;
  session_.reset();
}

double Solver::kernelSpentMs() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kernelStart_).count();
}

std::string Solver::budgetSpentReason() const {
  return "the kernel's budget of " + std::to_string(options_.kernelBudgetMs) + " ms is spent";
}

// The answer stored for `key` (this process's cache, then the disk cache), counted as a hit.
std::optional<SatAnswer> Solver::cachedAnswer(const std::string& key, size_t valueCount) {
  {
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    auto hit = answerCache().find(key);
    if (hit != answerCache().end()) {
      ++stats_.cacheHits;
      ++globalSolverStats().cacheHits;
      return hit->second;
    }
  }
  if (options_.cacheDir.empty()) return std::nullopt;
  bool rejected = false;
  auto stored = readCachedAnswer(options_.cacheDir, key, valueCount, &rejected);
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  if (rejected) {
    ++stats_.cacheRejected;
    ++globalSolverStats().cacheRejected;
  }
  if (stored) {
    ++stats_.cacheHits;
    ++globalSolverStats().cacheHits;
    answerCache().emplace(key, *stored);
  }
  return stored;
}

// Keeps a decided answer for `key` in this process's cache and the disk cache.
void Solver::remember(const std::string& key, const SatAnswer& a) {
  if (a.kind == SatAnswer::Kind::Unknown) return;
  if (!options_.cacheDir.empty()) writeCachedAnswer(options_.cacheDir, key, a);
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  answerCache().emplace(key, a);
}

SatAnswer Solver::check(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate, Model model,
                        QueryBounds bounds) {
  ++stats_.queries;
  if (refusesQueries()) {
    SatAnswer spent;  // not even looked up: see below
    spent.reason = budgetSpentReason();
    return spent;
  }
  // A witness: the assertions' model first, then each evaluation read at it, rather than every
  // evaluation translated for Z3 and its optimiser (a trace of 20,000 ops has 100,000 of them).
  if (model == Model::Minimal && !evaluate.empty()) {
    SatAnswer a = check(assertions, {}, Model::Minimal);
    if (a.kind != SatAnswer::Kind::Sat) return a;
    if (auto at = valuesAtModel(assertions, evaluate, a.symbols, options_.paramRanges)) {
      a.values = std::move(at->values);
      for (auto& [name, value] : at->symbols) a.symbols.emplace(name, value);
      return a;
    }
  }
  std::vector<ExprPtr> all = assertions;
  all.insert(all.end(), evaluate.begin(), evaluate.end());
  // Past the budget a query can still be answered from the caches, but the keys it may build
  // are bounded too: a kernel with 10,000 waits asked 10,000 questions as big as itself, and
  // building their keys alone ran for minutes after the budget.
  std::optional<std::string> shape;
  if (kernelBudgetSpent()) {
    shape = fingerprintWithin(all, kKeyNodesAfterBudget - std::min(kKeyNodesAfterBudget, keyNodesAfterBudget_));
    if (!shape) {
      keyNodesAfterBudget_ = kKeyNodesAfterBudget;
      SatAnswer spent;
      spent.reason = budgetSpentReason();
      return spent;
    }
    keyNodesAfterBudget_ += static_cast<size_t>(std::count(shape->begin(), shape->end(), ';'));
  } else {
    shape = fingerprint(all);
  }
  auto keyOf = [&](Model asked) {
    std::string k = std::to_string(assertions.size()) + "|" + *shape + (asked == Model::None ? "|no-model" : "");
    for (const auto& [name, range] : options_.paramRanges)
      k += "|" + name + "=" + std::to_string(range.first) + ":" + std::to_string(range.second);
    return k;
  };
  std::string key = keyOf(model);
  {
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    ++globalSolverStats().queries;
  }
  if (auto known = cachedAnswer(key, model == Model::None ? 0 : evaluate.size())) return *known;
  SatAnswer answer;
  // The budget covers all of it, the sample points too (a fuzzed kernel spent 5 s in them
  // against a 1 s budget when only Z3's time counted). Not cached when spent: a later run with
  // a fresh budget may decide it.
  auto budgetSpent = [&] {
    if (!kernelBudgetSpent()) return false;
    answer.reason = budgetSpentReason();
    return true;
  };
  if (budgetSpent()) return answer;
  // Concrete points answer most questions at no Z3 cost (sample_points.h): the formulas they
  // decide exactly (one symbol in arithmetic, compared-only symbols, finite spaces) and the
  // cheapest witness in order of cost (the measure Z3's optimiser would minimise) first, then
  // random points for a yes/no question left open.
  auto answeredByPoints = [&](SatAnswer::Kind kind) {
    answer.kind = kind;
    ++stats_.samplePointAnswers;
    remember(key, answer);
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    ++globalSolverStats().samplePointAnswers;
    return answer;
  };
  bool points = options_.concretePoints;
  PointSearch search;
  if (points) search = smallestSatisfyingPoint(assertions, evaluate, options_.paramRanges, model == Model::None);
  if (search.outcome == PointSearch::Outcome::Unsatisfiable) return answeredByPoints(SatAnswer::Kind::Unsat);
  if (search.outcome == PointSearch::Outcome::Satisfiable) {
    if (model == Model::Minimal) {
      answer.values.assign(search.values.begin(), search.values.end());
      answer.symbols = std::move(search.symbols);
    }
    return answeredByPoints(SatAnswer::Kind::Sat);
  }
  if (budgetSpent()) return answer;
  if (points && model == Model::None && evaluate.empty() && satisfiedAtSamplePoint(assertions, options_.paramRanges))
    return answeredByPoints(SatAnswer::Kind::Sat);
  if (budgetSpent()) return answer;
  // A nonlinear question's witness is Z3's first model (z3_session.cpp): the one that answered
  // the yes/no question, when it was asked first (ProofContext::checkForWitness), is reused.
  const bool linear = model == Model::Minimal && linearArithmetic(assertions);
  if (model == Model::Minimal && evaluate.empty() && !linear)
    if (auto plain = cachedAnswer(keyOf(Model::None), 0); plain && plain->kind == SatAnswer::Kind::Sat &&
                                                          !plain->symbols.empty()) {
      remember(key, *plain);
      return *plain;
    }
  auto start = std::chrono::steady_clock::now();  // Z3's time (the query's statistics) from here
  if (!session_) session_ = newZ3Session();
  double left = options_.kernelBudgetMs - kernelSpentMs();
  unsigned timeoutMs = std::min(options_.queryTimeoutMs, bounds.timeoutCapMs);
  Z3Query query{assertions, evaluate, model == Model::Minimal,
                static_cast<unsigned>(std::min<double>(timeoutMs, std::max(1.0, left))), left,
                options_.paramRanges, [this] { return kernelBudgetSpent(); }, budgetSpentReason(),
                bounds.resourceLimit, linear};
  answer = session_->solve(query);
  // Where Z3 gives up on a witness, a point that satisfies the assertions is still one (not the
  // smallest): a model found is a violation shown, never an unknown.
  if (answer.kind == SatAnswer::Kind::Unknown && model == Model::Minimal && evaluate.empty() && points &&
      !kernelBudgetSpent())
    if (auto at = samplePointModel(assertions, options_.paramRanges)) {
      answer.kind = SatAnswer::Kind::Sat;
      answer.reason.clear();
      answer.symbols = std::move(*at);
    }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  stats_.queryMs.push_back(ms);
  remember(key, answer);
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  globalSolverStats().queryMs.push_back(ms);
  return answer;
}

}  // namespace ptov
