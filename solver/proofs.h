#pragma once
// The encodings behind the proof rules (docs/solver.md): each one turns a question about a
// kernel into Z3 queries over its unrolled trace and answers with a Verdict and a witness.
#include <functional>
#include <memory>
#include <map>
#include <unordered_map>
#include <optional>
#include <tuple>
#include <vector>

#include "analyzer/model/flow.h"
#include "analyzer/model/model.h"
#include "solver/solver.h"
#include "solver/trace.h"
#include "solver/verdict.h"

namespace ptov {

// An intra-core event: (src pipe, dst pipe, id).
using EventKey = std::tuple<Pipe, Pipe, int64_t>;
std::string eventText(const EventKey& k);

// A solver answer as a verdict: Unsat proves, Unknown keeps the reason, Sat is a violation
// whose witness the caller fills.
Verdict verdictOf(const SatAnswer& a);

class ProofContext {
 public:
  ProofContext(const Kernel& k, Solver& solver);

  const Kernel& kernel() const { return kernel_; }
  const Trace& trace();
  // The kernel's control-flow graph, built once for every rule that walks it.
  const Flow& flow();
  Solver& solver() { return solver_; }
  // The values a witness shows from a model: the kernel's parameters and the launch symbols.
  std::vector<std::pair<std::string, int64_t>> shownValues(const SatAnswer& a) const;

  // The wait and set questions below are also asked of a trace that is only a prefix
  // (Trace::prefix): Violated is then a real violation, and Proved becomes Unknown.
  // sync-deadlock: can this wait_flag run with its event not set (by a set issued before it)?
  Verdict waitCanStarve(const Op& wait);
  // One query for the whole kernel, so a correct kernel costs one proof: can any wait starve
  // (sync-deadlock) / can any event be left set at the end (sync-exit-balance)? Proved means
  // no per-op query is needed.
  Verdict anyWaitCanStarve();
  Verdict anyEventLeaks();
  // sync-event-pairing: can this set_flag run while its event is still set (the earlier set's
  // wait then has nothing left to consume)?
  Verdict setCanOverwrite(const Op& set);
  // Can any set find its event already set? One query; Proved lets a rule skip the per-op ones.
  Verdict anySetCanOverwrite();
  // sync-exit-balance: can the kernel end with this event still set?
  Verdict eventLeaksAtExit(const EventKey& key);
  // Every event key that some set_flag in the kernel can use.
  std::vector<EventKey> eventKeys();
  // (src, dst) pipe pairs with an event id ptoverify cannot compute: not decided.
  std::vector<std::pair<Pipe, Pipe>> opaqueEventPairs();
  // barrier-arrival: are the lanes that reach this barrier (all the ops that count on the same
  // counter) exactly the P lanes it waits for (lane < P: a dense prefix; every lane for a
  // barrier without a count), does every arriving lane pass the same P, and does each reach it
  // the same number of times? `problem` says which of these fails.
  struct ArrivalVerdict {
    Verdict verdict;
    std::string problem;
  };
  ArrivalVerdict barrierArrival(const std::vector<const Op*>& barrier);
  // Can no lane run an instance of `a` and an instance of `b` in one execution (mutually
  // exclusive arms, stop variants)? Proved: never both; Violated: some path runs both.
  Verdict neverBothRun(const Op& a, const Op& b);
  // barrier-participants: can a lane at or above the barrier's participant count (and below
  // the grid stride, the lanes the kernel is written for) run an iteration of this grid-stride
  // loop? Proved: no such lane does phase work.
  Verdict laneBeyondCountWorks(const Op& barrier, const ExprPtr& loopStart, const ExprPtr& loopBound,
                               int64_t stride);
  // barrier-participants: can an arriving lane's participant count exceed the launched lanes?
  Verdict participantsExceedLanes(const std::vector<const Op*>& barrier);
  // comm rules: is there a path on which an instance of `from` runs, then an instance of `to`
  // (or the kernel ends, when `to` is null), without ops satisfying stages[0], then stages[1],
  // ... in that order in between?
  Verdict pathAvoiding(const Op& from, const Op* to, const std::vector<std::function<bool(const Op&)>>& stages);
  // The primitives the pairwise analyses (analysis/pipe_races) build on.
  // Does `g` hold whenever both `a` and `b` hold (syntactically, else by a Z3 query)?
  bool implied(const ExprPtr& g, const ExprPtr& a, const ExprPtr& b);
  bool impliedByShape(const ExprPtr& g, const ExprPtr& a, const ExprPtr& b);  // the syntactic half
  // Can `a` and `b` never hold together, by their shape (guards.cpp)? Cached per pair.
  bool exclusiveGuards(const ExprPtr& a, const ExprPtr& b);
  int shapeId(const ExprPtr& e);  // equal trees, equal ids (guards.cpp)
  // Asks whether `asserts` hold together, and only when they do, again for the values of
  // `evaluate` (a witness): the values of every trace op make most of a query's size, and
  // most queries are unsatisfiable.
  SatAnswer checkForWitness(const std::vector<ExprPtr>& asserts, const std::vector<ExprPtr>& evaluate);
  const std::vector<ExprPtr>& witnessEvaluations();  // guards and ids of every trace op, in order
  // `racingAccess`: for a race, the text of the access of trace op `from` / `upTo` (which then
  // appear on their lanes as the racing pair).
  Witness buildWitness(const SatAnswer& a, size_t evalBase, std::optional<size_t> from, size_t upTo,
                       std::optional<size_t> stuck,
                       const std::function<RacingAccess(size_t)>& racingAccess = nullptr);
  // The kernel budget, read every 4096 steps of the proofs' own work (shape folding, the race
  // walk): a clock read per step would cost more than the step, and kernels below that much
  // work fold the same whatever the budget, so their queries hit the same cache entries. Once
  // spent it stays spent; folding then stops early (the rest of a chain is kept, which is
  // still exact) and the solver answers `unknown`.
  bool budgetSpent();

 private:
  struct Levels;  // event level per key along the trace
  const Levels& levels();
  Verdict anyInstance(const std::map<size_t, ExprPtr>& (*pick)(const Levels&));
  Verdict unknownTrace();
  Verdict overPrefix(Verdict v);
  void addLaunchFacts(Trace& t) const;
  Verdict eventQuery(const Op& op, const std::map<size_t, ExprPtr>& conditions, bool stuck);
  // Can one of `conds` hold? Violated (no witness yet): `which` is a condition the model makes
  // true and `answer` holds the witness evaluations after the conditions.
  Verdict askAny(const std::vector<ExprPtr>& conds, size_t& which, SatAnswer& answer);
  std::optional<std::vector<ExprPtr>> witnessEvaluations_;
  // An event level as an op firing under `fires` sees it (proofs.cpp).
  ExprPtr levelWhen(ExprPtr level, const ExprPtr& fires);
  ExprPtr levelAtEndIs(ExprPtr level, int64_t value);  // "level == value" when the kernel ends
 public:
  struct GuardFacts {
    std::vector<int> conjuncts, negated;                // shape ids, sorted
    std::vector<std::pair<int, int64_t>> equalities;    // (value's shape id, constant), sorted
  };

 private:
  const GuardFacts& guardFacts(const ExprPtr& g);
  std::unordered_map<int, GuardFacts> guardFacts_;  // by shapeId
  std::map<std::pair<int, int>, bool> exclusiveCache_;  // by shapeId
  std::unordered_map<const Expr*, std::pair<ExprPtr, int>> shapeIds_;
  std::unordered_map<std::string, int> shapes_;
  const std::vector<int>& knownShapes(const ExprPtr& a);
  std::unordered_map<const Expr*, std::pair<ExprPtr, std::vector<int>>> knownShapes_;
  std::map<std::tuple<int, int, int>, bool> impliedCache_;  // by shapeId
  // The symbols an expression names, as sorted ids (cached per node, kept alive here).
  const std::vector<int>& symbolsOf(const ExprPtr& e);
  std::unordered_map<const Expr*, std::pair<ExprPtr, std::vector<int>>> symbolsOf_;
  std::unordered_map<std::string, int> symbolIds_;
  std::optional<std::vector<int>> assumptionSymbols_;
  size_t workSteps_ = 0;
  bool budgetSpent_ = false;

  const Kernel& kernel_;
  Solver& solver_;
  std::optional<Trace> trace_;
  std::optional<Flow> flow_;
  std::unique_ptr<Levels> levels_;

 public:
  ~ProofContext();
};

}  // namespace ptov
