#include "solver/trace.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace ptov {

ExprPtr innermostBinding(const LoopBindings& env, const std::string& var) {
  for (auto it = env.rbegin(); it != env.rend(); ++it)
    if (*it->first == var) return it->second;
  return nullptr;
}

namespace {

class Unroller {
 public:
  explicit Unroller(Trace& t) : t_(t) {}

  // A kernel sure to exceed the limit is given up before its first 20,000 instances are built,
  // unless its prefix is wanted (Trace::prefix).
  void run(const Stmt& body, bool keepPrefix) {
    if (size_t least = leastInstances(body); least > kMaxTraceOps) {
      overLimit_ = "at least " + std::to_string(least) + " op instances after unrolling, more than the " +
                   std::to_string(kMaxTraceOps) + " allowed";
      if (!keepPrefix) return incomplete(overLimit_);
      limit_ = kMaxPrefixOps;
    }
    walk(body, Expr::constant(1));
    if (t_.complete || t_.ops.empty()) return;
    // Only the first instances are kept: the questions a prefix answers cost the more, the
    // longer it is, and a violation shows within the first iterations.
    t_.prefix = true;
    if (t_.ops.size() > kMaxPrefixOps) t_.ops.resize(kMaxPrefixOps);
    while (!t_.branches.empty() && t_.branches.back().firstOp >= t_.ops.size()) t_.branches.pop_back();
  }

 private:
  // The fewest instances the walk below can emit for `s`: a loop with constant bounds keeps
  // min(trip, 5) iterations or more; one whose bounds are not constant before binding may end
  // up with none. Saturates instead of overflowing.
  static size_t leastInstances(const Stmt& s) {
    auto add = [](size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; };
    switch (s.kind) {
      case Stmt::Kind::OpStmt: return 1;
      case Stmt::Kind::For: {
        auto lb = evalConst(s.lb), ub = evalConst(s.ub), step = evalConst(s.step);
        if (!lb || !ub || !step || *step <= 0 || *ub <= *lb) return 0;
        int64_t trip = (*ub - *lb + *step - 1) / *step;
        size_t copies = static_cast<size_t>(std::min<int64_t>(trip, keptCopies(s.period)));
        size_t body = leastInstances(*s.children[0]);
        return body != 0 && copies > SIZE_MAX / body ? SIZE_MAX : body * copies;
      }
      case Stmt::Kind::While: {
        size_t both = add(leastInstances(*s.children[0]), leastInstances(*s.children[1]));
        return add(both, both);
      }
      case Stmt::Kind::Blocks: return 0;
      default: {
        size_t n = 0;
        for (const auto& c : s.children)
          if (c) n = add(n, leastInstances(*c));
        return n;
      }
    }
  }

  // Instances `s` produces when every loop inside is unrolled by the policy below.
  static size_t instances(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::OpStmt: return 1;
      case Stmt::Kind::For: {
        size_t body = instances(*s.children[0]);
        auto lb = evalConst(s.lb), ub = evalConst(s.ub), step = evalConst(s.step);
        if (lb && ub && step && *step > 0) {
          int64_t trip = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
          return body * static_cast<size_t>(trip <= kExactTrip ? trip : keptCopies(s.period));
        }
        return body * static_cast<size_t>(keptCopies(s.period));
      }
      case Stmt::Kind::While: return 2 * (instances(*s.children[0]) + instances(*s.children[1]));
      default: {
        size_t n = 0;
        for (const auto& c : s.children)
          if (c) n += instances(*c);
        return n;
      }
    }
  }

  // Iterations a long loop of period P keeps: 0 .. P-1 and up to 2P - 1 at its end (5 for P = 2).
  static int64_t keptCopies(int period) { return 3 * static_cast<int64_t>(period) - 1; }

  ExprPtr bind(const ExprPtr& e) const {
    if (!e) return e;
    return substitute(e, [&](const Expr& leaf) -> ExprPtr {
      if (leaf.kind == Expr::Kind::LoopVar) return innermostBinding(env_, leaf.name);
      // A value the front end could not express may differ in every iteration.
      if (leaf.kind == Expr::Kind::Unknown && !context_.empty()) return Expr::unknown(leaf.name + context_);
      return nullptr;
    });
  }

  void emit(const Op& op, const ExprPtr& guard) {
    if (t_.ops.size() >= limit_) {
      incomplete(!overLimit_.empty() ? overLimit_
                                     : "more than " + std::to_string(kMaxTraceOps) + " op instances after unrolling");
      return;
    }
    TraceOp t;
    t.op = &op;
    t.guard = exprAnd(guard, alive_);
    if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) {
      if (op.event.id) t.eventId = Expr::constant(*op.event.id);
      else if (op.event.idExpr) t.eventId = bind(op.event.idExpr);
    }
    if (op.kind == OpKind::SyncAll) {
      t.participants = bind(op.participants);
      t.participantIndex = bind(op.participantIndex);
    }
    t.iteration = iteration_;
    for (int w = 0; w < 2; ++w)
      for (const MemRef& m : w ? op.writes : op.reads) {
        TraceAccess a;
        a.ref = &m;
        a.write = w == 1;
        for (const auto& e : m.offsets) a.offsets.push_back(bind(e));
        for (const auto& e : m.sizes) a.sizes.push_back(bind(e));
        t.accesses.push_back(std::move(a));
      }
    t_.ops.push_back(std::move(t));
    if (op.kind == OpKind::Return) alive_ = exprAnd(alive_, exprNot(guard));
  }

  void incomplete(const std::string& why) {
    if (t_.complete) t_.incompleteReason = why;
    t_.complete = false;
  }

  void walk(const Stmt& s, const ExprPtr& guard) {
    if (!t_.complete) return;
    switch (s.kind) {
      case Stmt::Kind::OpStmt: emit(s.op, guard); return;
      case Stmt::Kind::Seq:
        for (const auto& c : s.children)
          if (c) walk(*c, guard);
        return;
      case Stmt::Kind::If: {
        ExprPtr c = bind(s.cond);
        if (!c || c->kind == Expr::Kind::Unknown)
          c = Expr::unknown("cond@" + std::to_string(s.loc.line) + ":" + std::to_string(s.loc.col) + context_);
        t_.branches.push_back({s.loc, s.cond ? toString(s.cond) : "?", guard, c, t_.ops.size()});
        walk(*s.children[0], exprAnd(guard, c));
        if (s.children.size() > 1 && s.children[1]) walk(*s.children[1], exprAnd(guard, exprNot(c)));
        return;
      }
      case Stmt::Kind::For: return walkFor(s, guard);
      case Stmt::Kind::While: return walkWhile(s, guard);
      case Stmt::Kind::Blocks:
        incomplete("an unstructured (multi-block) body at line " + std::to_string(s.loc.line));
        return;
    }
  }

  void walkIteration(const Stmt& loop, const ExprPtr& value, const ExprPtr& guard, const std::string& copy) {
    auto savedIter = iteration_;
    auto savedContext = context_;
    env_.emplace_back(&loop.var, value);
    auto inner = std::make_shared<LoopIteration>(*iteration_);
    inner->push_back({loop.var, value});
    iteration_ = std::move(inner);
    context_ += "#" + copy;
    walk(*loop.children[0], guard);
    env_.pop_back();
    iteration_ = std::move(savedIter);
    context_ = std::move(savedContext);
  }

  // With period P (Stmt::period, 2 unless the front end says more): iterations 0 .. P-1, then
  // the tail j in {m, ..., m + 2P - 2} with m = P * floor((T - P) / P), each present when
  // P <= j < T. For P = 2: 0 and 1, then m, m+1, m+2. Small trip counts are therefore exact, the
  // last iteration is always there, and the iteration after P-1 is a multiple of P, so patterns
  // with that period (double-buffer ids or guards from i mod 2) see a consistent sequence.
  void walkFor(const Stmt& s, const ExprPtr& guard) {
    ExprPtr lb = bind(s.lb), ub = bind(s.ub), step = bind(s.step);
    auto clb = evalConst(lb), cub = evalConst(ub), cstep = evalConst(step);
    std::string where = std::to_string(s.loc.line) + ":" + std::to_string(s.loc.col);
    if (clb && cub && cstep && *cstep > 0) {
      int64_t trip = *cub > *clb ? (*cub - *clb + *cstep - 1) / *cstep : 0;
      size_t body = instances(*s.children[0]);
      bool exact = trip <= kExactTrip && t_.ops.size() + body * static_cast<size_t>(trip) <= kMaxTraceOps;
      std::vector<int64_t> its;
      if (exact) {
        for (int64_t k = 0; k < trip; ++k) its.push_back(k);
      } else {
        const int64_t period = s.period;
        int64_t m = period * ((trip - period) / period);
        for (int64_t k = 0; k < period && k < trip; ++k) its.push_back(k);
        for (int64_t j = m; j <= m + 2 * period - 2; ++j)
          if (j >= period && j < trip) its.push_back(j);
        std::string kept;
        for (int64_t k : its) kept += (kept.empty() ? "" : ", ") + std::to_string(k);
        t_.approximations.push_back("loop " + s.var + " at " + where + " (" + std::to_string(trip) +
                                    " iterations) kept iterations " + kept);
      }
      for (int64_t k : its)
        walkIteration(s, Expr::constant(*clb + k * *cstep), guard, s.var + "=" + std::to_string(k));
      return;
    }
    using K = Expr::Kind;
    if (!cstep) t_.assumptions.push_back(Expr::cmp("sgt", step, Expr::constant(0)));
    const int64_t period = s.period;
    t_.approximations.push_back("loop " + s.var + " at " + where + " (trip count not constant) kept iterations " +
                                (period == 2 ? std::string("0, 1 and the last two or three")
                                             : "0 to " + std::to_string(period - 1) + " and the last " +
                                                   std::to_string(period) + " to " + std::to_string(2 * period - 1)));
    auto c = [](int64_t v) { return Expr::constant(v); };
    ExprPtr trip = Expr::binary(K::Div, Expr::binary(K::Add, Expr::binary(K::Sub, ub, lb), Expr::binary(K::Sub, step, c(1))), step);
    ExprPtr m = Expr::binary(K::Mul, c(period), Expr::binary(K::Div, Expr::binary(K::Sub, trip, c(period)), c(period)));
    auto at = [&](const ExprPtr& j) { return Expr::binary(K::Add, lb, Expr::binary(K::Mul, j, step)); };
    // The first P iterations; each runs only if the ones before it did.
    std::vector<ExprPtr> firstRuns{Expr::cmp("slt", lb, ub)};
    walkIteration(s, lb, s.atLeastOnce ? guard : exprAnd(guard, firstRuns[0]), s.var + "=0");
    for (int64_t k = 1; k < period; ++k) {
      ExprPtr value = k == 1 ? Expr::binary(K::Add, lb, step) : at(c(k));
      ExprPtr runs = Expr::cmp("slt", value, ub);
      t_.earlierIterations[runs.get()] = firstRuns;
      walkIteration(s, value, exprAnd(guard, runs), s.var + "=" + std::to_string(k));
      firstRuns.push_back(runs);
    }
    ExprPtr previous;
    for (int64_t d = 0; d <= 2 * period - 2; ++d) {
      ExprPtr j = Expr::binary(K::Add, m, c(d));
      ExprPtr present = exprAnd(Expr::cmp("sge", j, c(period)), Expr::cmp("slt", j, trip));
      // j >= P runs after 0 .. P-1; m + d >= P with 0 < d < P needs m >= P (a multiple of P), so
      // m + d - 1 runs before it, as it does for d > P. (Not for d = P: with m = 0 the iteration
      // before P is the first block's last.)
      t_.earlierIterations[present.get()] = firstRuns;
      if (d != 0 && d != period) t_.earlierIterations[present.get()].push_back(previous);
      walkIteration(s, at(j), exprAnd(guard, present), s.var + "=m+" + std::to_string(d));
      previous = present;
    }
  }

  void walkWhile(const Stmt& s, const ExprPtr& guard) {
    std::string where = std::to_string(s.loc.line) + ":" + std::to_string(s.loc.col);
    t_.approximations.push_back("while loop at " + where + " kept its first two iterations");
    ExprPtr g = guard;
    for (int k = 0; k < 2; ++k) {
      auto savedContext = context_;
      context_ += "#while" + where + "=" + std::to_string(k);
      walk(*s.children[0], g);
      ExprPtr more = Expr::unknown("while@" + where + context_);
      walk(*s.children[1], exprAnd(g, more));
      context_ = std::move(savedContext);
      g = exprAnd(g, more);
    }
  }

  Trace& t_;
  LoopBindings env_;
  std::shared_ptr<const LoopIteration> iteration_ = std::make_shared<LoopIteration>();
  std::string context_;
  ExprPtr alive_ = Expr::constant(1);
  std::string overLimit_;  // why the kernel cannot fit, known before the walk
  size_t limit_ = kMaxTraceOps;
};

}  // namespace

Trace unrollKernel(const Kernel& k, bool keepPrefix) {
  Trace t;
  if (!k.body) return t;
  Unroller(t).run(*k.body, keepPrefix);
  return t;
}

}  // namespace ptov
