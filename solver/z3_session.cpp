// The Z3 half of the solver (solver/z3_session.h): Expr -> Z3 terms, one query with the launch
// facts and parameter ranges, and the witness minimisation. Nothing else in ptoverify includes Z3.
#include "solver/z3_session.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "solver/sample_points.h"

namespace ptov {
namespace {

// Z3 resource units for minimising a witness (deterministic, unlike a timeout).
constexpr unsigned kWitnessRlimit = 20000000;
// Z3 does not count every step against the resource limit (nonlinear arithmetic is the known
// gap): past this time the first model is kept. A flash-attention race witness took 15 s here.
// Every minimisation that ends over the corpus, the examples, the fused kernel and pto-isa's tree
// does so within 50 ms on an idle machine; the margin to this limit is what keeps witnesses the
// same on a loaded one (with 150 ms, one `ctest -j 2` run of cli_proofs differed from its
// re-asked cache).
constexpr double kWitnessBackstopMs = 500;

// Thrown by the translation when the kernel's budget runs out in it: turning a query as big as
// a kernel of 10,000 waits into Z3 terms is work outside Z3's own timer.
struct TranslationOverBudget {};

// The terms of one kernel's queries, kept between them: a kernel's queries share most of their
// guards and assumptions, and building their terms again was two thirds of a race check's time
// on flash attention. Z3 shares equal terms anyway, so a query sees the same terms either way.
struct TermCache {
  std::unordered_map<const Expr*, z3::expr> memo;
  std::vector<ExprPtr> keep;  // keeps memo keys alive
  std::map<std::string, z3::expr> symbols;
};

class Translator {
 public:
  Translator(z3::context& c, TermCache& cache, std::function<bool()> budgetSpent)
      : c_(c), memo_(cache.memo), keep_(cache.keep), allSymbols_(cache.symbols), budgetSpent_(std::move(budgetSpent)) {}

  z3::expr asInt(const ExprPtr& e) {
    z3::expr x = translate(e);
    return x.is_bool() ? z3::ite(x, c_.int_val(1), c_.int_val(0)) : x;
  }
  z3::expr asBool(const ExprPtr& e) {
    z3::expr x = translate(e);
    return x.is_bool() ? x : x != 0;
  }
  // The symbols the translated expressions name (walked anew: a cached term does not say).
  std::map<std::string, z3::expr> symbols(const std::vector<const std::vector<ExprPtr>*>& roots) {
    std::map<std::string, z3::expr> out;
    std::unordered_set<const Expr*> seen;
    std::vector<const Expr*> todo;
    for (const auto* list : roots)
      for (const auto& e : *list) todo.push_back(e.get());
    while (!todo.empty()) {
      const Expr* e = todo.back();
      todo.pop_back();
      if (!e) {
        out.emplace("?null", symbol("?null"));
        continue;
      }
      if (!seen.insert(e).second) continue;
      if (isSymbol(e->kind)) {
        std::string name = solverSymbolName(*e);
        out.emplace(name, symbol(name));
      }
      for (const auto& a : e->args) todo.push_back(a.get());
    }
    return out;
  }

 private:
  static bool isSymbol(Expr::Kind k) {
    using K = Expr::Kind;
    return k == K::Param || k == K::LoopVar || k == K::BlockIdx || k == K::BlockNum || k == K::Unknown;
  }

  z3::expr symbol(const std::string& name) {
    auto it = allSymbols_.find(name);
    if (it != allSymbols_.end()) return it->second;
    z3::expr s = c_.int_const(name.c_str());
    allSymbols_.emplace(name, s);
    return s;
  }

  z3::expr translate(const ExprPtr& e) {
    if (!e) return symbol("?null");
    auto it = memo_.find(e.get());
    if (it != memo_.end()) return it->second;
    if (e->depth <= kDeepTerm) return translateNode(e);
    buildFromLeaves(e);
    return memo_.at(e.get());
  }

  // Past this depth a term is built from its leaves up, so `build` never recurses more than one
  // node deep: a kernel's chain of 5,000 event levels overflowed the 8 MB stack of a sanitized
  // build when translated recursively.
  static constexpr int kDeepTerm = 200;

  z3::expr translateNode(const ExprPtr& e) {
    if ((++translated_ & 1023) == 0 && budgetSpent_()) throw TranslationOverBudget{};
    z3::expr r = build(*e);
    memo_.emplace(e.get(), r);
    keep_.push_back(e);
    return r;
  }

  // Post-order over the nodes not yet translated, with an explicit stack.
  void buildFromLeaves(const ExprPtr& root) {
    std::vector<std::pair<ExprPtr, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      ExprPtr node = stack.back().first;
      size_t next = stack.back().second++;
      if (next < node->args.size()) {
        const ExprPtr& child = node->args[next];
        if (child && !memo_.count(child.get())) stack.push_back({child, 0});
        continue;
      }
      stack.pop_back();
      if (!memo_.count(node.get())) translateNode(node);
    }
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
  std::unordered_map<const Expr*, z3::expr>& memo_;
  std::vector<ExprPtr>& keep_;
  std::map<std::string, z3::expr>& allSymbols_;
  std::function<bool()> budgetSpent_;
  size_t translated_ = 0;
};


class Session : public Z3Session {
 public:
  SatAnswer solve(const Z3Query& q) override {
    SatAnswer answer;
    auto start = std::chrono::steady_clock::now();
  try {
    z3::context& c = ctx_;
    Translator tr(c, terms_, q.budgetSpent);
    // The plain "smt" tactic: the default solver's preprocessing costs ~15 ms per query on
    // these small formulas (measured with make bench), the smt core well under 2 ms.
    z3::solver s = z3::tactic(c, "smt").mk_solver();
    z3::params p(c);
    double left = q.leftMs;
    unsigned timeout = q.timeoutMs;
    p.set("timeout", timeout);
    if (q.resourceLimit) p.set("rlimit", q.resourceLimit);
    s.set(p);
    z3::expr_vector facts(c);
    for (const auto& a : q.assertions) facts.push_back(tr.asBool(a));
    std::vector<z3::expr> evals;
    evals.reserve(q.evaluate.size());
    for (const auto& e : q.evaluate) evals.push_back(tr.asInt(e));
    // Facts about the launch, and the configured parameter ranges.
    const std::map<std::string, z3::expr> syms = tr.symbols({&q.assertions, &q.evaluate});
    auto bn = syms.find("block_num");
    z3::expr blockNum = bn != syms.end() ? bn->second : c.int_const("block_num");
    facts.push_back(blockNum >= 1);
    // --param-range block_num bounds the lanes even when the query names only lane copies.
    if (bn == syms.end())
      if (auto r = q.paramRanges.find("block_num"); r != q.paramRanges.end())
        facts.push_back(blockNum >= c.int_val(r->second.first) && blockNum <= c.int_val(r->second.second));
    z3::expr shown = c.int_val(0);  // the witness values users read: kept small
    bool usesLanes = bn != syms.end();
    for (const auto& [name, sym] : syms) {
      auto r = q.paramRanges.find(withoutPercent(name));
      if (r != q.paramRanges.end())
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
        // Every yes carries its first model's symbols: a witness of a nonlinear question is that
        // model (Solver::check), not a second solve.
        z3::model first = s.get_model();
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
        // Not asked where the first model shows only zeros (as small as a witness gets; the
        // optimiser's fresh context costs more than most queries do), nor over nonlinear
        // arithmetic: Z3's optimiser does not count it against the resource limit and ran to the
        // time backstop on every such witness seen (flash attention's races), then kept the
        // first model anyway; kept at once, the answer does not depend on the machine's speed.
        auto showsOnlyZeros = [&] {
          int64_t firstShown = -1;
          return first.eval(shown, true).is_numeral_i64(firstShown) && firstShown == 0;
        };
        bool minimise = q.minimalModel && q.linear && !showsOnlyZeros();
        std::unique_ptr<z3::context> fresh;
        std::optional<z3::model> best;  // after `fresh`: a model must go before its context
        auto moved = [&](const z3::expr& e) { return z3::expr(*fresh, Z3_translate(c, e, *fresh)); };
        if (minimise) {
          fresh = std::make_unique<z3::context>();
          z3::context& oc = *fresh;
          z3::optimize o(oc);
          z3::params op(oc);
          op.set("rlimit", kWitnessRlimit);
          // A time backstop bounds it, and so does the kernel budget (a fuzzed kernel took 12 s
          // against a 1 s budget): past either, the first model is kept. Its own context, so no
          // other timer is hit.
          // With under 100 ms left the first model is kept: a timer of a few ms cancels the
          // optimizer mid-step, and fuzz_check_file once saw Z3 4.8 crash there (SIGSEGV inside
          // optimize::check on a loaded machine, not reproducible alone; docs/fuzzing.md).
          double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
          double remaining = std::min(left - spent, kWitnessBackstopMs);
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
        if (q.minimalModel)
          for (auto& e : evals) answer.values.push_back(value(e));
        for (const auto& [name, sym] : syms)
          if (auto v = value(sym)) answer.symbols[name] = *v;
        if (usesLanes)
          if (auto lanes = value(blockNum)) answer.symbols["block_num"] = *lanes;
        break;
      }
      case z3::unsat: answer.kind = SatAnswer::Kind::Unsat; break;
      case z3::unknown: {
        std::string why = s.reason_unknown();
        double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        // Both limits read "canceled": the time tells which one stopped it.
        bool timedOut = !q.resourceLimit || spent >= 0.9 * timeout;
        answer.reason = why == "timeout" || why == "canceled"
                            ? (timedOut ? "Z3 timed out after " + std::to_string(timeout) + " ms"
                                        : "Z3 stopped at its bound of " + std::to_string(q.resourceLimit) + " resource units")
                            : "Z3 answered unknown (" + why + ")";
        break;
      }
    }
  } catch (const z3::exception& e) {
    answer.kind = SatAnswer::Kind::Unknown;
    answer.reason = std::string("Z3 error: ") + e.msg();
  } catch (const TranslationOverBudget&) {
    answer.kind = SatAnswer::Kind::Unknown;
    answer.reason = q.budgetSpentReason;
  }
    return answer;
  }

 private:
  z3::context ctx_;
  TermCache terms_;  // after ctx_: its terms go before the context
};

}  // namespace
}  // namespace ptov

namespace ptov {
std::unique_ptr<Z3Session> newZ3Session() { return std::make_unique<Session>(); }
}  // namespace ptov
