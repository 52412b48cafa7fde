#pragma once
// The only door to Z3. Rules and proofs ask satisfiability questions in Expr terms (the same
// integer expressions the front ends produce) and get Sat with a model, Unsat, or Unknown
// with a reason. Every Z3 object lives behind this interface.
//
// Every query also assumes 1 <= block_num and 0 <= block_idx < block_num, plus the configured
// parameter ranges. Integers are mathematical (no overflow); docs/solver.md.
#include <chrono>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"

namespace ptov {

class Z3Session;

struct SolverOptions {
  unsigned queryTimeoutMs = 2000;     // per query
  unsigned kernelBudgetMs = 20000;    // one kernel's proofs: unrolling, query building and queries
  // Inclusive ranges for scalar parameters, by name with or without the leading '%'.
  std::map<std::string, std::pair<int64_t, int64_t>> paramRanges;
  // Directory for answers kept across runs ("" = in this process only; solver/disk_cache.h).
  std::string cacheDir;
  // Answer from concrete points where they decide (sample_points.h); off, every query goes
  // to Z3 (tests compare the two).
  bool concretePoints = true;
};

struct SatAnswer {
  enum class Kind { Sat, Unsat, Unknown };
  Kind kind = Kind::Unknown;
  std::string reason;                          // Unknown: "timeout after 2000 ms", ...
  std::vector<std::optional<int64_t>> values;  // Sat: the value of each `evaluate` expression
  std::map<std::string, int64_t> symbols;      // Sat: the model's named integer symbols
};

struct SolverStats {
  size_t queries = 0;
  size_t cacheHits = 0;
  size_t samplePointAnswers = 0;  // answered by concrete points, without Z3 (sample_points.h)
  size_t cacheRejected = 0;       // --cache-dir entries not trusted (edited, foreign, malformed)
  std::vector<double> queryMs;  // wall time of each query that ran Z3
};

// Narrower limits for one query: a lower time limit, and a bound on Z3's own work (its resource
// units, counted the same on any machine: where the bound is what stops Z3, a slow machine gets
// the same `unknown` as a fast one, not another answer).
struct QueryBounds {
  unsigned timeoutCapMs = UINT_MAX;
  unsigned resourceLimit = 0;  // 0: none
};

class Solver {
 public:
  explicit Solver(SolverOptions options = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // What a satisfiable answer carries: nothing (the caller only needs sat / unsat), or the
  // values of a minimal model (a witness for the user).
  enum class Model { None, Minimal };

  // Is the conjunction of `assertions` (each read as "!= 0") satisfiable? When it is, and a
  // model is wanted, the minimal model's value of every `evaluate` expression is returned.
  // Answers are cached by a hash of the query, so asking again (the same kernel re-checked)
  // costs nothing.
  // `bounds` narrow the limits for a question whose `unknown` costs little (a filter that falls
  // back to finer questions).
  SatAnswer check(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate = {},
                  Model model = Model::Minimal, QueryBounds bounds = {});

  // Starts the per-kernel time budget again. The budget is wall time from here: the proofs'
  // own work (folding event levels, walking pairs of accesses) counts as well as Z3's, so a
  // kernel whose queries take long to build ends as `unknown`, never as a hang.
  void startKernel();
  double kernelSpentMs() const;
  bool kernelBudgetSpent() const { return kernelSpentMs() >= options_.kernelBudgetMs; }
  std::string budgetSpentReason() const;
  // The budget is spent and so are the cache lookups allowed after it: every query answers
  // `unknown` at once, so a caller need not even build one.
  bool refusesQueries() const { return kernelBudgetSpent() && keyNodesAfterBudget_ >= kKeyNodesAfterBudget; }
  const SolverStats& stats() const { return stats_; }
  const SolverOptions& options() const { return options_; }

 private:
  std::optional<SatAnswer> cachedAnswer(const std::string& key, size_t valueCount);
  void remember(const std::string& key, const SatAnswer& a);
  std::unique_ptr<Z3Session> session_;  // made on the first query points leave open
  SolverOptions options_;
  SolverStats stats_;
  std::chrono::steady_clock::time_point kernelStart_ = std::chrono::steady_clock::now();
  // Expression nodes the cache keys of this kernel's queries may take once its budget is spent.
  static constexpr size_t kKeyNodesAfterBudget = 1000000;
  size_t keyNodesAfterBudget_ = 0;
};

// Statistics of every Solver in this process (for the benchmark).
SolverStats& globalSolverStats();
// Forgets every cached answer (the benchmark measures cold queries).
void clearSolverCache();

}  // namespace ptov
