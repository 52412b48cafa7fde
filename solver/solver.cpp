#include "solver/solver.h"

#include "solver/disk_cache.h"
#include "solver/sample_points.h"

#include <algorithm>
#include <z3++.h>

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

// Z3 resource units for minimising a witness (deterministic, unlike a timeout).
constexpr unsigned kWitnessRlimit = 20000000;

// Thrown by the translation when the kernel's budget runs out in it: turning a query as big as
// a kernel of 10,000 waits into Z3 terms is work outside Z3's own timer.
struct TranslationOverBudget {};

class Translator {
 public:
  Translator(z3::context& c, std::function<bool()> budgetSpent) : c_(c), budgetSpent_(std::move(budgetSpent)) {}

  z3::expr asInt(const ExprPtr& e) {
    z3::expr x = translate(e);
    return x.is_bool() ? z3::ite(x, c_.int_val(1), c_.int_val(0)) : x;
  }
  z3::expr asBool(const ExprPtr& e) {
    z3::expr x = translate(e);
    return x.is_bool() ? x : x != 0;
  }
  const std::map<std::string, z3::expr>& symbols() const { return symbols_; }

 private:
  z3::expr symbol(const std::string& name) {
    auto it = symbols_.find(name);
    if (it != symbols_.end()) return it->second;
    z3::expr s = c_.int_const(name.c_str());
    symbols_.emplace(name, s);
    return s;
  }

  z3::expr translate(const ExprPtr& e) {
    if (!e) return symbol("?null");
    auto it = memo_.find(e.get());
    if (it != memo_.end()) return it->second;
    if ((++translated_ & 1023) == 0 && budgetSpent_()) throw TranslationOverBudget{};
    z3::expr r = build(*e);
    memo_.emplace(e.get(), r);
    keep_.push_back(e);
    return r;
  }

  z3::expr build(const Expr& e) {
    using K = Expr::Kind;
    switch (e.kind) {
      case K::Const: return c_.int_val(static_cast<int64_t>(e.value));
      case K::Param:
      case K::LoopVar:
      case K::BlockIdx:
      case K::BlockNum:
      case K::Unknown: return symbol(solverSymbolName(e));
      case K::Add: return asInt(e.args[0]) + asInt(e.args[1]);
      case K::Sub: return asInt(e.args[0]) - asInt(e.args[1]);
      case K::Mul: return asInt(e.args[0]) * asInt(e.args[1]);
      // Division by zero is left to Z3 (an unconstrained value), like the hardware's undefined result.
      case K::Div: return asInt(e.args[0]) / asInt(e.args[1]);
      case K::Rem: return z3::mod(asInt(e.args[0]), asInt(e.args[1]));
      case K::Min: return z3::min(asInt(e.args[0]), asInt(e.args[1]));
      case K::Max: return z3::max(asInt(e.args[0]), asInt(e.args[1]));
      case K::Select: {
        z3::expr a = translate(e.args[1]), b = translate(e.args[2]);
        if (a.is_bool() && b.is_bool()) return z3::ite(asBool(e.args[0]), a, b);
        return z3::ite(asBool(e.args[0]), asInt(e.args[1]), asInt(e.args[2]));
      }
      case K::Not: return !asBool(e.args[0]);
      case K::And: return asBool(e.args[0]) && asBool(e.args[1]);
      case K::Or: return asBool(e.args[0]) || asBool(e.args[1]);
      case K::Cmp: {
        z3::expr a = asInt(e.args[0]), b = asInt(e.args[1]);
        const std::string& p = e.pred;
        // Unsigned predicates are read as signed: indices here are small and non-negative.
        if (p == "eq") return a == b;
        if (p == "ne") return a != b;
        if (p == "slt" || p == "ult") return a < b;
        if (p == "sle" || p == "ule") return a <= b;
        if (p == "sgt" || p == "ugt") return a > b;
        if (p == "sge" || p == "uge") return a >= b;
        return symbol("?cmp") != 0;
      }
    }
    return symbol("?");
  }

  z3::context& c_;
  std::function<bool()> budgetSpent_;
  size_t translated_ = 0;
  std::unordered_map<const Expr*, z3::expr> memo_;
  std::vector<ExprPtr> keep_;  // keeps memo keys alive
  std::map<std::string, z3::expr> symbols_;
};

std::string stripPercent(const std::string& s) { return !s.empty() && s[0] == '%' ? s.substr(1) : s; }

}  // namespace

struct Solver::Impl {
  z3::context ctx;
};

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
  impl_.reset();
}

double Solver::kernelSpentMs() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kernelStart_).count();
}

std::string Solver::budgetSpentReason() const {
  return "the kernel's budget of " + std::to_string(options_.kernelBudgetMs) + " ms is spent";
}

SatAnswer Solver::check(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate, Model model) {
  ++stats_.queries;
  if (refusesQueries()) {
    SatAnswer spent;  // not even looked up: see below
    spent.reason = budgetSpentReason();
    return spent;
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
  std::string key = std::to_string(assertions.size()) + "|" + *shape + (model == Model::None ? "|no-model" : "");
  for (const auto& [name, range] : options_.paramRanges)
    key += "|" + name + "=" + std::to_string(range.first) + ":" + std::to_string(range.second);
  {
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    ++globalSolverStats().queries;
    auto hit = answerCache().find(key);
    if (hit != answerCache().end()) {
      ++stats_.cacheHits;
      ++globalSolverStats().cacheHits;
      return hit->second;
    }
  }
  if (!options_.cacheDir.empty()) {
    bool rejected = false;
    auto stored = readCachedAnswer(options_.cacheDir, key, model == Model::None ? 0 : evaluate.size(), &rejected);
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    if (rejected) {
      ++stats_.cacheRejected;
      ++globalSolverStats().cacheRejected;
    }
    if (stored) {
      ++stats_.cacheHits;
      ++globalSolverStats().cacheHits;
      answerCache().emplace(key, *stored);
      return *stored;
    }
  }
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
    if (!options_.cacheDir.empty()) writeCachedAnswer(options_.cacheDir, key, answer);
    std::lock_guard<std::mutex> lock(sharedStateMutex());
    ++globalSolverStats().samplePointAnswers;
    answerCache().emplace(std::move(key), answer);
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
  auto start = std::chrono::steady_clock::now();  // Z3's time (the query's statistics) from here
  try {
    if (!impl_) impl_ = std::make_unique<Impl>();
    z3::context& c = impl_->ctx;
    Translator tr(c, [this] { return kernelBudgetSpent(); });
    // The plain "smt" tactic: the default solver's preprocessing costs ~15 ms per query on
    // these small formulas (measured with make bench), the smt core well under 2 ms.
    z3::solver s = z3::tactic(c, "smt").mk_solver();
    z3::params p(c);
    double left = options_.kernelBudgetMs - kernelSpentMs();
    unsigned timeout = static_cast<unsigned>(std::min<double>(options_.queryTimeoutMs, std::max(1.0, left)));
    p.set("timeout", timeout);
    s.set(p);
    z3::expr_vector facts(c);
    for (const auto& a : assertions) facts.push_back(tr.asBool(a));
    std::vector<z3::expr> evals;
    evals.reserve(evaluate.size());
    for (const auto& e : evaluate) evals.push_back(tr.asInt(e));
    // Facts about the launch, and the configured parameter ranges.
    auto syms = tr.symbols();
    auto bn = syms.find("block_num");
    z3::expr blockNum = bn != syms.end() ? bn->second : c.int_const("block_num");
    facts.push_back(blockNum >= 1);
    // --param-range block_num bounds the lanes even when the query names only lane copies.
    if (bn == syms.end())
      if (auto r = options_.paramRanges.find("block_num"); r != options_.paramRanges.end())
        facts.push_back(blockNum >= c.int_val(r->second.first) && blockNum <= c.int_val(r->second.second));
    z3::expr shown = c.int_val(0);  // the witness values users read: kept small
    bool usesLanes = bn != syms.end();
    for (const auto& [name, sym] : syms) {
      auto r = options_.paramRanges.find(stripPercent(name));
      if (r != options_.paramRanges.end())
        facts.push_back(sym >= c.int_val(r->second.first) && sym <= c.int_val(r->second.second));
      // The block index, and lane copies of it (block_idx#a), obey the launch bounds.
      if (name.find("block_idx") != std::string::npos) {
        facts.push_back(sym >= 0 && sym < blockNum);
        usesLanes = true;
      }
      // |x|, with ties broken towards the non-negative value (2|x| + [x < 0]).
      if (name[0] == '%' || name.rfind("args[", 0) == 0 || name.find("block_") != std::string::npos)
        shown = shown + z3::ite(sym >= 0, 2 * sym, -2 * sym + 1);
    }
    s.add(facts);
    switch (s.check()) {
      case z3::sat: {
        answer.kind = SatAnswer::Kind::Sat;
        if (model == Model::None) break;
        // Prefer the smallest parameter values (num_tokens = 0 rather than 8191): witnesses
        // read better and stay stable. If that takes too long, keep the first model.
        // A resource limit rather than a time limit: the same query gets the same witness on a
        // loaded CI machine as on an idle one (the time limit below is only the kernel budget's
        // backstop, far above what the resource limit allows on ordinary kernels). It runs in a
        // fresh context:
        // - a late timeout timer of an earlier query on `c` can cancel whatever runs on `c` next,
        //   and Z3 4.8's optimizer then gives up (another witness) or never returns (seen in
        //   make test);
        // - a fresh context breaks ties the same way whatever this thread solved before, so -j N
        //   prints the same witnesses as -j 1.
        z3::model first = s.get_model();
        // A first model that shows only zeros is as small as a witness gets: no optimiser, whose
        // fresh context costs more than most queries do.
        int64_t firstShown = -1;
        bool zeros = first.eval(shown, true).is_numeral_i64(firstShown) && firstShown == 0;
        std::unique_ptr<z3::context> fresh;
        std::optional<z3::model> best;  // after `fresh`: a model must go before its context
        auto moved = [&](const z3::expr& e) { return z3::expr(*fresh, Z3_translate(c, e, *fresh)); };
        if (!zeros) {
          fresh = std::make_unique<z3::context>();
          z3::context& oc = *fresh;
          z3::optimize o(oc);
          z3::params op(oc);
          op.set("rlimit", kWitnessRlimit);
          // The kernel budget still bounds it (a fuzzed kernel took 12 s against a 1 s budget):
          // past what is left, the first model is kept. Its own context, so no other timer is hit.
          // With under 100 ms left the first model is kept: a timer of a few ms cancels the
          // optimizer mid-step, and fuzz_check_file once saw Z3 4.8 crash there (SIGSEGV inside
          // optimize::check on a loaded machine, not reproducible alone; docs/fuzzing.md).
          double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
          double remaining = left - spent;
          op.set("timeout", static_cast<unsigned>(std::max(1.0, remaining)));
          o.set(op);
          for (const auto& f : facts) o.add(moved(f));
          o.minimize(moved(shown));
          if (remaining >= 100 && o.check() == z3::sat) best = o.get_model();
        }
        auto value = [&](const z3::expr& e) -> std::optional<int64_t> {
          int64_t out = 0;
          z3::expr v = best ? best->eval(moved(e), true) : first.eval(e, true);
          if (v.is_numeral_i64(out)) return out;
          return std::nullopt;
        };
        for (auto& e : evals) answer.values.push_back(value(e));
        for (const auto& [name, sym] : tr.symbols())
          if (auto v = value(sym)) answer.symbols[name] = *v;
        if (usesLanes)
          if (auto lanes = value(blockNum)) answer.symbols["block_num"] = *lanes;
        break;
      }
      case z3::unsat: answer.kind = SatAnswer::Kind::Unsat; break;
      case z3::unknown: {
        std::string why = s.reason_unknown();
        answer.reason = why == "timeout" || why == "canceled"
                            ? "Z3 timed out after " + std::to_string(timeout) + " ms"
                            : "Z3 answered unknown (" + why + ")";
        break;
      }
    }
  } catch (const z3::exception& e) {
    answer.kind = SatAnswer::Kind::Unknown;
    answer.reason = std::string("Z3 error: ") + e.msg();
  } catch (const TranslationOverBudget&) {
    answer.kind = SatAnswer::Kind::Unknown;
    answer.reason = budgetSpentReason();
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  stats_.queryMs.push_back(ms);
  if (!options_.cacheDir.empty()) writeCachedAnswer(options_.cacheDir, key, answer);
  std::lock_guard<std::mutex> lock(sharedStateMutex());
  globalSolverStats().queryMs.push_back(ms);
  if (answer.kind != SatAnswer::Kind::Unknown) answerCache().emplace(std::move(key), answer);
  return answer;
}

}  // namespace ptov
