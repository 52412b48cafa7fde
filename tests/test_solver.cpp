// The solver layer: Expr -> Z3 terms, the answer cache, budgets, and the unrolled trace.
#include <doctest/doctest.h>

#include <cstdlib>

#include "solver/sample_points.h"
#include "solver/solver.h"
#include "solver/trace.h"
#include "tests/helpers.h"

using namespace ptov;
using namespace ptov::test;

namespace {
ExprPtr c(int64_t v) { return Expr::constant(v); }
ExprPtr p(const char* name) { return Expr::param(name, 0); }
ExprPtr bin(Expr::Kind k, ExprPtr a, ExprPtr b) { return Expr::binary(k, std::move(a), std::move(b)); }
// Z3 alone, without the concrete points that answer most queries first.
SolverOptions z3Only() {
  SolverOptions o;
  o.concretePoints = false;
  return o;
}

// Random-formula campaigns: a decision the points make on `q` (no ranges, no witness wanted) must
// be Z3's. Counts what they proved and what they found; undecided and Z3-unknown are skipped.
struct Agreement {
  int proved = 0, found = 0;
  void check(const std::vector<ExprPtr>& q) {
    PointSearch ours = smallestSatisfyingPoint(q, {}, {}, true);
    if (ours.outcome == PointSearch::Outcome::Undecided) return;
    Solver z3(z3Only());
    SatAnswer answer = z3.check(q, {}, Solver::Model::None);
    if (answer.kind == SatAnswer::Kind::Unknown) return;
    std::string text;
    for (const auto& e : q) text += (text.empty() ? "" : " && ") + toString(e);
    if (ours.outcome == PointSearch::Outcome::Unsatisfiable) {
      ++proved;
      CHECK_MESSAGE(answer.kind == SatAnswer::Kind::Unsat, text);
    } else {
      ++found;
      CHECK_MESSAGE(answer.kind == SatAnswer::Kind::Sat, text);
    }
  }
};
// PTOV_ROUNDS (and the like) run a longer campaign locally.
int fromEnv(const char* name, int otherwise) { return getenv(name) ? atoi(getenv(name)) : otherwise; }
uint64_t seedFromEnv(uint64_t otherwise) { return getenv("PTOV_SEED") ? strtoull(getenv("PTOV_SEED"), nullptr, 10) : otherwise; }
}  // namespace

TEST_CASE("solver: Expr arithmetic, selects and comparisons reach Z3 with their meaning") {
  Solver s(z3Only());
  using K = Expr::Kind;
  // x % 4 == 3 and min(x, 10) == x and x > 5  ->  x = 7 is the smallest model.
  auto a = s.check({Expr::cmp("eq", bin(K::Rem, p("%x"), c(4)), c(3)), Expr::cmp("eq", bin(K::Min, p("%x"), c(10)), p("%x")),
                    Expr::cmp("sgt", p("%x"), c(5))},
                   {p("%x")});
  REQUIRE(a.kind == SatAnswer::Kind::Sat);
  CHECK(a.values[0] == 7);
  CHECK(a.symbols.at("%x") == 7);
  // select(x > 0, x, -x) < 0 has no model.
  auto abs = Expr::select(Expr::cmp("sgt", p("%x"), c(0)), p("%x"), bin(K::Sub, c(0), p("%x")));
  CHECK(s.check({Expr::cmp("slt", abs, c(0))}).kind == SatAnswer::Kind::Unsat);
  // The block index stays inside the launch: block_idx >= block_num is impossible.
  auto idx = std::make_shared<Expr>();
  idx->kind = K::BlockIdx;
  auto num = std::make_shared<Expr>();
  num->kind = K::BlockNum;
  CHECK(s.check({Expr::cmp("sge", idx, num)}).kind == SatAnswer::Kind::Unsat);
  // Boolean connectives mix with 0/1 integers.
  CHECK(s.check({exprAnd(Expr::cmp("eq", p("%x"), c(1)), exprNot(Expr::cmp("eq", p("%x"), c(1))))}).kind ==
        SatAnswer::Kind::Unsat);
}

TEST_CASE("solver: answers are cached by the query, ranges and budgets apply") {
  Solver s;
  auto q = std::vector<ExprPtr>{Expr::cmp("sgt", p("%cache_probe"), c(41))};
  auto first = s.check(q, {p("%cache_probe")});
  size_t hits = s.stats().cacheHits;
  auto again = s.check({Expr::cmp("sgt", p("%cache_probe"), c(41))}, {p("%cache_probe")});  // equal, not identical
  CHECK(s.stats().cacheHits == hits + 1);
  CHECK(again.values == first.values);
  CHECK(first.values[0] == 42);

  SolverOptions ranged;
  ranged.paramRanges["num_tokens"] = {0, 128};
  Solver r(ranged);
  CHECK(r.check({Expr::cmp("sgt", p("%num_tokens"), c(128))}).kind == SatAnswer::Kind::Unsat);

  SolverOptions broke;
  broke.kernelBudgetMs = 0;
  Solver b(broke);
  auto u = b.check({Expr::cmp("sgt", p("%budget_probe"), c(0))});
  CHECK(u.kind == SatAnswer::Kind::Unknown);
  CHECK(u.reason.find("budget") != std::string::npos);
}

TEST_CASE("sample points: a point that satisfies the query is a model, none proves nothing") {
  using K = Expr::Kind;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  // A variant switch and a size: only exact values satisfy it, harvested from the comparison.
  CHECK(satisfiedAtSamplePoint({Expr::cmp("eq", p("%variant"), c(2)), Expr::cmp("sgt", p("%n"), c(100))}, none));
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("sgt", p("%x"), c(3)), Expr::cmp("slt", p("%x"), c(2))}, none));
  // The launch facts and the ranges hold at every point used.
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("sge", Expr::blockIdx(), Expr::blockNum())}, none));
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("slt", Expr::blockNum(), c(1))}, none));
  std::map<std::string, std::pair<int64_t, int64_t>> five{{"x", {5, 5}}};
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("ne", p("%x"), c(5))}, five));
  CHECK(satisfiedAtSamplePoint({Expr::cmp("eq", p("%x"), c(5))}, five));
  // Division as Z3 reads it (Euclidean), and no claim where a divisor is zero.
  CHECK(satisfiedAtSamplePoint({Expr::cmp("eq", bin(K::Div, c(-7), c(2)), c(-4))}, none));
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("eq", bin(K::Div, c(-7), c(2)), c(-3))}, none));
  CHECK(satisfiedAtSamplePoint({Expr::cmp("eq", bin(K::Rem, c(-7), c(2)), c(1))}, none));
  CHECK_FALSE(satisfiedAtSamplePoint({Expr::cmp("eq", bin(K::Div, p("%x"), c(0)), c(5))}, none));
}

TEST_CASE("sample points agree with Z3 on random formulas") {
  using K = Expr::Kind;
  // Random formulas over two parameters and the block index; every point-found model must be
  // one Z3 confirms (asked with an expression to evaluate, which never takes the point shortcut).
  uint64_t state = 12345;
  auto next = [&]() { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  std::function<ExprPtr(int)> term = [&](int depth) -> ExprPtr {
    if (depth == 0 || next() % 4 == 0) {
      switch (next() % 4) {
        case 0: return p("%x");
        case 1: return Expr::param("%y", 1);
        case 2: return Expr::blockIdx();
        default: return c(static_cast<int64_t>(next() % 19) - 9);
      }
    }
    static const K kinds[] = {K::Add, K::Sub, K::Mul, K::Div, K::Rem, K::Min, K::Max};
    if (next() % 6 == 0) return Expr::select(Expr::cmp("slt", term(depth - 1), term(depth - 1)), term(depth - 1), term(depth - 1));
    return bin(kinds[next() % 7], term(depth - 1), term(depth - 1));
  };
  static const char* preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  int sat = 0, found = 0;
  for (int n = 0; n < 300; ++n) {
    std::vector<ExprPtr> q{Expr::cmp(preds[next() % 6], term(3), term(3)), Expr::cmp(preds[next() % 6], term(2), term(2))};
    bool byPoint = satisfiedAtSamplePoint(q, none);
    SolverOptions quick = z3Only();
    quick.queryTimeoutMs = 100;  // products of two symbols can be slow for Z3; unknown is skipped
    Solver z3(quick);
    SatAnswer a = z3.check(q, {c(0)}, Solver::Model::None);
    if (a.kind == SatAnswer::Kind::Sat) ++sat;
    if (byPoint) {
      ++found;
      CHECK_MESSAGE(a.kind != SatAnswer::Kind::Unsat, toString(q[0]) << " && " << toString(q[1]));
    }
  }
  // Not a vacuous check: most satisfiable formulas are found by a point.
  CHECK(found * 10 >= sat * 7);
}

TEST_CASE("point search: the cheapest witness in order of cost, unsatisfiable only over a finite space") {
  using K = Expr::Kind;
  using O = PointSearch::Outcome;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  // Values in order of cost: 0, 1, -1, 2, -2, ...
  auto gt3 = smallestSatisfyingPoint({Expr::cmp("sgt", p("%x"), c(3))}, {bin(K::Add, p("%x"), c(10))}, none, false);
  REQUIRE(gt3.outcome == O::Satisfiable);
  CHECK(gt3.symbols.at("%x") == 4);
  CHECK(gt3.values == std::vector<int64_t>{14});
  CHECK(smallestSatisfyingPoint({Expr::cmp("slt", p("%x"), c(0))}, {}, none, false).symbols.at("%x") == -1);
  // No symbols: one point decides either way.
  CHECK(smallestSatisfyingPoint({Expr::cmp("eq", c(2), c(2))}, {}, none, false).outcome == O::Satisfiable);
  CHECK(smallestSatisfyingPoint({Expr::cmp("eq", c(2), c(3))}, {}, none, false).outcome == O::Unsatisfiable);
  // Unbounded symbols in arithmetic never prove unsatisfiable (one alone is decided, and so are
  // symbols only compared, below); bounded ones do once every value is read.
  auto sum = bin(K::Add, p("%x"), p("%y"));
  auto contradiction = std::vector<ExprPtr>{Expr::cmp("sgt", sum, c(3)), Expr::cmp("slt", sum, c(2))};
  CHECK(smallestSatisfyingPoint(contradiction, {}, none, false).outcome == O::Undecided);
  CHECK(smallestSatisfyingPoint(contradiction, {}, none, true).outcome == O::Undecided);
  std::map<std::string, std::pair<int64_t, int64_t>> small{{"x", {-5, 20}}, {"y", {0, 3}}};
  CHECK(smallestSatisfyingPoint(contradiction, {}, small, true).outcome == O::Unsatisfiable);
  // A range that excludes zero starts at the value nearest to it.
  std::map<std::string, std::pair<int64_t, int64_t>> high{{"x", {100, 200}}}, low{{"x", {-200, -100}}};
  CHECK(smallestSatisfyingPoint({Expr::cmp("sge", p("%x"), c(0))}, {}, high, false).symbols.at("%x") == 100);
  CHECK(smallestSatisfyingPoint({Expr::cmp("sle", p("%x"), c(0))}, {}, low, false).symbols.at("%x") == -100);
  // Block indices lie below the lane count, which the witness names even when the query does not.
  auto lane = smallestSatisfyingPoint({Expr::cmp("eq", Expr::blockIdx(), c(3))}, {}, none, false);
  REQUIRE(lane.outcome == O::Satisfiable);
  CHECK(lane.symbols.at("block_num") == 4);
  // A divisor of zero is no certain value: never a witness, never a proof.
  std::map<std::string, std::pair<int64_t, int64_t>> tiny{{"x", {0, 0}}};
  CHECK(smallestSatisfyingPoint({Expr::cmp("eq", bin(K::Div, c(1), p("%x")), c(5))}, {}, tiny, true).outcome == O::Undecided);
  // Past its budget of points it leaves the question to Z3.
  CHECK(smallestSatisfyingPoint({Expr::cmp("eq", p("%x"), c(1000000))}, {}, none, false).outcome == O::Undecided);
}

TEST_CASE("point search agrees with Z3's optimiser on random formulas") {
  using K = Expr::Kind;
  // Every symbol here is one Z3 minimises (parameters and the block index), so a witness the
  // search finds must cost exactly what Z3's minimal model costs, and a space it exhausts
  // (parameters in small ranges) must be one Z3 calls unsatisfiable.
  uint64_t state = 987654321;
  auto next = [&]() { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  std::function<ExprPtr(int)> term = [&](int depth) -> ExprPtr {
    if (depth == 0 || next() % 3 == 0) {
      switch (next() % 4) {
        case 0: return p("%x");
        case 1: return Expr::param("%y", 1);
        case 2: return Expr::blockIdx();
        default: return c(static_cast<int64_t>(next() % 19) - 9);
      }
    }
    static const K kinds[] = {K::Add, K::Sub, K::Mul, K::Div, K::Rem, K::Min, K::Max};
    return bin(kinds[next() % 7], term(depth - 1), term(depth - 1));
  };
  static const char* preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  auto cost = [](int64_t v) { return v == 0 ? 0 : v > 0 ? 2 * v : -2 * v + 1; };
  std::map<std::string, std::pair<int64_t, int64_t>> ranges{{"x", {-6, 6}}, {"y", {-3, 9}}, {"block_num", {1, 8}}};
  const std::map<std::string, std::pair<int64_t, int64_t>> unbounded;
  int found = 0, exhausted = 0, unsatLeft = 0, cheaper = 0;
  for (int n = 0; n < 200; ++n) {
    std::vector<ExprPtr> q{Expr::cmp(preds[next() % 6], term(3), term(3)), Expr::cmp(preds[next() % 6], term(2), term(2))};
    bool bounded = n % 2 == 1;
    const auto& r = bounded ? ranges : unbounded;
    PointSearch ours = smallestSatisfyingPoint(q, {}, r, false);
    SolverOptions quick = z3Only();
    quick.queryTimeoutMs = 200;
    quick.paramRanges = r;
    Solver z3(quick);
    SatAnswer a = z3.check(q, {});
    if (a.kind == SatAnswer::Kind::Unknown) continue;
    std::string formula = toString(q[0]) + " && " + toString(q[1]);
    if (ours.outcome == PointSearch::Outcome::Satisfiable) {
      ++found;
      REQUIRE_MESSAGE(a.kind == SatAnswer::Kind::Sat, formula);
      // Our point is a model: Z3 agrees with every symbol fixed to its value.
      SolverOptions atPoint = z3Only();
      for (const auto& [name, v] : ours.symbols) atPoint.paramRanges[name.substr(name[0] == '%')] = {v, v};
      CHECK_MESSAGE(Solver(atPoint).check(q, {}, Solver::Model::None).kind == SatAnswer::Kind::Sat, formula);
      // No cheaper model, except where Z3 gives a zero divisor a value of its choosing (a point
      // the evaluator cannot read: fixed by ranges of one value, it is neither sat nor unsat).
      // The lane count counts only where the query names it, as in Z3's measure. (Z3 may find a
      // costlier one: its optimiser stops at a resource limit.)
      int64_t mine = 0, theirs = 0;
      for (const auto& [name, v] : ours.symbols) mine += name == "block_num" ? 0 : cost(v);
      for (const auto& [name, v] : a.symbols) theirs += name == "block_num" ? 0 : cost(v);
      if (mine > theirs) {
        std::map<std::string, std::pair<int64_t, int64_t>> fixed;
        for (const auto& [name, v] : a.symbols) fixed[name.substr(name[0] == '%')] = {v, v};
        CHECK_MESSAGE(smallestSatisfyingPoint(q, {}, fixed, true).outcome == PointSearch::Outcome::Undecided, formula);
      }
      cheaper += mine < theirs;
    } else if (ours.outcome == PointSearch::Outcome::Unsatisfiable) {
      ++exhausted;
      CHECK_MESSAGE(a.kind == SatAnswer::Kind::Unsat, formula);
    } else if (bounded && a.kind == SatAnswer::Kind::Unsat) {
      ++unsatLeft;
    }
  }
  MESSAGE("found ", found, " (cheaper than Z3's ", cheaper, "), exhausted ", exhausted, ", unsat left to Z3 ", unsatLeft);
  CHECK(found >= 80);
  CHECK(exhausted >= 3);
}

TEST_CASE("one symbol: exact decisions over an unbounded symbol without Z3") {
  using K = Expr::Kind;
  using O = PointSearch::Outcome;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  auto decide = [&](std::vector<ExprPtr> q) { return smallestSatisfyingPoint(q, {}, none, true).outcome; };
  auto x = p("%x");
  CHECK(decide({Expr::cmp("sgt", x, c(3)), Expr::cmp("slt", x, c(2))}) == O::Unsatisfiable);
  // Parity through div and mod: x even and x % 4 == 1 never; (x / 2) * 2 is x or x - 1.
  CHECK(decide({Expr::cmp("eq", bin(K::Rem, x, c(2)), c(0)), Expr::cmp("eq", bin(K::Rem, x, c(4)), c(1))}) ==
        O::Unsatisfiable);
  CHECK(decide({Expr::cmp("eq", bin(K::Mul, bin(K::Div, x, c(2)), c(2)), bin(K::Add, x, c(1)))}) == O::Unsatisfiable);
  CHECK(decide({Expr::cmp("eq", bin(K::Mul, bin(K::Div, x, c(2)), c(2)), bin(K::Sub, x, c(1)))}) == O::Satisfiable);
  // min and select settle once one side wins for good.
  CHECK(decide({Expr::cmp("sgt", bin(K::Min, x, c(10)), c(10))}) == O::Unsatisfiable);
  CHECK(decide({Expr::cmp("slt", Expr::select(Expr::cmp("sgt", x, c(0)), x, bin(K::Sub, c(0), x)), c(0))}) ==
        O::Unsatisfiable);
  // A trip count over 2 with a remainder loop (the shape of unrolled double buffering).
  auto trips = bin(K::Div, bin(K::Sub, x, c(2)), c(2));
  CHECK(decide({Expr::cmp("sge", bin(K::Add, bin(K::Mul, c(2), trips), c(2)), c(2)),
                Expr::cmp("slt", bin(K::Add, bin(K::Mul, c(2), trips), c(2)), x),
                Expr::cmp("eq", bin(K::Rem, x, c(2)), c(0))}) == O::Unsatisfiable);
  // Outside what it reads: a product of the symbol with itself, a divisor of zero, two symbols.
  CHECK(decide({Expr::cmp("eq", bin(K::Mul, x, x), c(2))}) == O::Undecided);
  CHECK(decide({Expr::cmp("eq", bin(K::Div, x, c(0)), c(2))}) == O::Undecided);
  CHECK(decide({Expr::cmp("sgt", bin(K::Add, x, p("%y")), c(1)), Expr::cmp("slt", bin(K::Add, x, p("%y")), c(0))}) ==
        O::Undecided);
  // A configured range is left to the search over ranges (and to Z3 when half open).
  std::map<std::string, std::pair<int64_t, int64_t>> half{{"x", {0, INT64_MAX}}};
  auto twice = bin(K::Mul, x, c(2));
  CHECK(smallestSatisfyingPoint({Expr::cmp("sgt", twice, c(7)), Expr::cmp("slt", twice, c(5))}, {}, half, true).outcome ==
        O::Undecided);
  // The witness is the cheapest point, as from the search in order of cost.
  auto w = smallestSatisfyingPoint({Expr::cmp("eq", bin(K::Rem, x, c(7)), c(5)), Expr::cmp("slt", x, c(0))}, {}, none, true);
  REQUIRE(w.outcome == O::Satisfiable);
  CHECK(w.symbols.at("%x") == -2);
}

TEST_CASE("one symbol: decisions agree with Z3 on random formulas") {
  using K = Expr::Kind;
  // Linear terms in one symbol with constant divisors, min, max and selects: every decision the
  // points make must be Z3's. PTOV_SEED, PTOV_ROUNDS and PTOV_DEPTH run a longer campaign
  // (2,000 rounds at depth 4 for three seeds, 3,000 at depth 5: no disagreement).
  uint64_t state = seedFromEnv(4242);
  auto next = [&]() { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  static const char* preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  std::function<ExprPtr(int)> term = [&](int depth) -> ExprPtr {
    if (depth == 0 || next() % 4 == 0) return next() % 2 ? p("%x") : c(static_cast<int64_t>(next() % 41) - 20);
    switch (next() % 8) {
      case 0: return bin(K::Add, term(depth - 1), term(depth - 1));
      case 1: return bin(K::Sub, term(depth - 1), term(depth - 1));
      case 2: return bin(K::Mul, c(static_cast<int64_t>(next() % 7) - 3), term(depth - 1));
      case 3: return bin(K::Div, term(depth - 1), c(static_cast<int64_t>(next() % 4) + 2));
      case 4: return bin(K::Rem, term(depth - 1), c(next() % 2 ? 3 : -4));
      case 5: return bin(K::Min, term(depth - 1), term(depth - 1));
      case 6: return bin(K::Max, term(depth - 1), term(depth - 1));
      default:
        return Expr::select(Expr::cmp(preds[next() % 6], term(depth - 1), term(depth - 1)), term(depth - 1), term(depth - 1));
    }
  };
  Agreement agree;
  int rounds = fromEnv("PTOV_ROUNDS", 300), depth = fromEnv("PTOV_DEPTH", 3);
  for (int n = 0; n < rounds; ++n)
    agree.check({Expr::cmp(preds[next() % 6], term(depth), term(depth)), Expr::cmp(preds[next() % 6], term(depth), term(depth))});
  MESSAGE("proved ", agree.proved, ", found ", agree.found);
  CHECK(agree.proved >= 30);
  CHECK(agree.found >= 30);
}

TEST_CASE("order only: symbols only compared are decided over a small box") {
  using O = PointSearch::Outcome;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  auto decide = [&](std::vector<ExprPtr> q) { return smallestSatisfyingPoint(q, {}, none, true); };
  // Two lanes that both are lane 0 yet differ.
  auto a = p("lane_a.block_idx"), b = p("lane_b.block_idx");
  CHECK(decide({Expr::cmp("eq", a, c(0)), Expr::cmp("eq", b, c(0)), Expr::cmp("ne", a, b)}).outcome == O::Unsatisfiable);
  CHECK(decide({Expr::cmp("sge", Expr::blockIdx(), Expr::blockNum())}).outcome == O::Unsatisfiable);
  // Lane 0 and another lane: the witness is lanes 0 and 1 of two.
  auto w = decide({Expr::cmp("eq", a, c(0)), Expr::cmp("ne", b, c(0))});
  REQUIRE(w.outcome == O::Satisfiable);
  CHECK(w.symbols.at("lane_b.block_idx") == 1);
  CHECK(w.symbols.at("block_num") == 2);
  // Symbols beyond the constants are still only an order: the box reaches n past them.
  CHECK(decide({Expr::cmp("sgt", p("%x"), c(20)), Expr::cmp("slt", p("%y"), c(-20)), Expr::cmp("sgt", p("%y"), p("%x"))})
            .outcome == O::Unsatisfiable);
  auto apart = decide({Expr::cmp("sgt", p("%x"), c(20)), Expr::cmp("slt", p("%y"), c(-20)), Expr::cmp("slt", p("%y"), p("%x"))});
  REQUIRE(apart.outcome == O::Satisfiable);
  CHECK(apart.symbols.at("%x") == 21);
  CHECK(apart.symbols.at("%y") == -21);
  // A box too big to read (constants far apart) is left to Z3.
  CHECK(decide({Expr::cmp("sgt", p("%x"), c(100000)), Expr::cmp("slt", p("%y"), c(-100000)), Expr::cmp("sgt", p("%y"), p("%x"))})
            .outcome == O::Undecided);
}

TEST_CASE("order only: decisions agree with Z3 on random formulas") {
  using K = Expr::Kind;
  // Comparisons among two lanes, the lane count, two parameters and constants, combined with
  // connectives, selects and sums of 0/1 (the shape of the barrier-arrival counts). PTOV_SEED and
  // PTOV_ROUNDS run a longer campaign (3,000 rounds for three seeds: no disagreement).
  uint64_t state = seedFromEnv(777);
  auto next = [&]() { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  static const char* preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  auto leaf = [&]() -> ExprPtr {
    switch (next() % 6) {
      case 0: return p("lane_a.block_idx");
      case 1: return p("lane_b.block_idx");
      case 2: return Expr::blockNum();
      case 3: return p("%x");
      case 4: return p("%y");
      default: return c(static_cast<int64_t>(next() % 9) - 3);
    }
  };
  auto atom = [&]() { return Expr::cmp(preds[next() % 6], leaf(), leaf()); };
  std::function<ExprPtr(int)> formula = [&](int depth) -> ExprPtr {
    if (depth == 0) return atom();
    switch (next() % 4) {
      case 0: return exprAnd(formula(depth - 1), formula(depth - 1));
      case 1: return exprNot(formula(depth - 1));
      case 2: {
        auto count = [&] { return bin(K::Add, Expr::select(formula(depth - 1), c(1), c(0)), Expr::select(formula(depth - 1), c(1), c(0))); };
        return Expr::cmp(preds[next() % 6], count(), count());
      }
      default: return bin(K::Or, formula(depth - 1), formula(depth - 1));
    }
  };
  Agreement agree;
  for (int n = 0, rounds = fromEnv("PTOV_ROUNDS", 300); n < rounds; ++n) agree.check({formula(2), formula(2)});
  MESSAGE("proved ", agree.proved, ", found ", agree.found);
  CHECK(agree.proved >= 10);
  CHECK(agree.found >= 100);
}

TEST_CASE("flags and one symbol: each flag order decided over the symbol") {
  using K = Expr::Kind;
  using O = PointSearch::Outcome;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  auto x = p("%x"), v = p("%v");
  // A variant flag selects between two trip-count guards, neither of which can hold.
  auto guard = Expr::select(Expr::cmp("eq", v, c(0)), bin(K::Rem, x, c(2)), bin(K::Add, bin(K::Rem, x, c(2)), c(2)));
  CHECK(smallestSatisfyingPoint({Expr::cmp("sgt", guard, c(3))}, {}, none, true).outcome == O::Unsatisfiable);
  // With a guard the flag can meet, the witness names both.
  auto w = smallestSatisfyingPoint({Expr::cmp("eq", guard, c(3))}, {}, none, true);
  REQUIRE(w.outcome == O::Satisfiable);
  CHECK(w.symbols.at("%v") != 0);
  CHECK(w.symbols.at("%x") % 2 != 0);
  // Two symbols in arithmetic are left to Z3.
  CHECK(smallestSatisfyingPoint({Expr::cmp("sgt", bin(K::Add, x, v), c(3)), Expr::cmp("slt", bin(K::Add, x, v), c(2))}, {},
                                none, true)
            .outcome == O::Undecided);
}

TEST_CASE("flags and one symbol: decisions agree with Z3 on random formulas") {
  using K = Expr::Kind;
  // Terms in %x whose selects test flags (%f, %g compared with constants and each other).
  uint64_t state = seedFromEnv(31337);
  auto next = [&]() { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  static const char* preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  auto flagAtom = [&]() {
    auto f = next() % 2 ? p("%f") : p("%g");
    auto other = next() % 3 == 0 ? (next() % 2 ? p("%f") : p("%g")) : c(static_cast<int64_t>(next() % 7) - 3);
    return Expr::cmp(preds[next() % 6], f, other);
  };
  std::function<ExprPtr(int)> term = [&](int depth) -> ExprPtr {
    if (depth == 0 || next() % 4 == 0) return next() % 2 ? p("%x") : c(static_cast<int64_t>(next() % 21) - 10);
    switch (next() % 5) {
      case 0: return bin(K::Add, term(depth - 1), term(depth - 1));
      case 1: return bin(K::Mul, c(static_cast<int64_t>(next() % 5) - 2), term(depth - 1));
      case 2: return bin(K::Div, term(depth - 1), c(static_cast<int64_t>(next() % 3) + 2));
      case 3: return bin(K::Min, term(depth - 1), term(depth - 1));
      default: return Expr::select(flagAtom(), term(depth - 1), term(depth - 1));
    }
  };
  Agreement agree;
  for (int n = 0, rounds = fromEnv("PTOV_ROUNDS", 200); n < rounds; ++n) {
    std::vector<ExprPtr> q{Expr::cmp(preds[next() % 6], term(3), term(3)), Expr::cmp(preds[next() % 6], term(3), term(3))};
    if (next() % 2) q.push_back(flagAtom());
    agree.check(q);
  }
  MESSAGE("proved ", agree.proved, ", found ", agree.found);
  CHECK(agree.proved >= 20);
  CHECK(agree.found >= 50);
}

TEST_CASE("witness values: read at a model of the assertions, symbols only the values name at their cheapest") {
  using K = Expr::Kind;
  std::map<std::string, std::pair<int64_t, int64_t>> none;
  auto x = p("%x"), y = p("%y");
  std::vector<ExprPtr> q{Expr::cmp("sgt", x, c(3))};
  auto at = valuesAtModel(q, {bin(K::Add, x, c(1)), bin(K::Mul, y, c(2)), bin(K::Div, x, y)}, {{"%x", 4}}, none);
  REQUIRE(at);
  CHECK(at->values[0] == std::optional<int64_t>(5));
  CHECK(at->values[1] == std::optional<int64_t>(0));  // y is 0: its cheapest value
  CHECK_FALSE(at->values[2].has_value());             // x / 0 has no certain value
  CHECK(at->symbols.at("%y") == 0);
  // A range moves a free symbol to its bound nearer 0; a lane index is lane 0 of one lane.
  std::map<std::string, std::pair<int64_t, int64_t>> yFrom2{{"y", {2, 5}}};
  at = valuesAtModel(q, {y, Expr::blockIdx()}, {{"%x", 4}}, yFrom2);
  REQUIRE(at);
  CHECK(at->values[0] == std::optional<int64_t>(2));
  CHECK(at->values[1] == std::optional<int64_t>(0));
  CHECK(at->symbols.at("block_num") == 1);
  // A point that is not a model of the assertions gives nothing: Z3 is asked instead.
  CHECK_FALSE(valuesAtModel(q, {x}, {{"%x", 3}}, none));
  // The sample point found is a model, with the lane count where lanes occur.
  auto model = samplePointModel({Expr::cmp("eq", x, c(7)), Expr::cmp("slt", Expr::blockIdx(), c(2))}, none);
  REQUIRE(model);
  CHECK(model->at("%x") == 7);
  CHECK(model->at("block_idx") < 2);
  CHECK(model->at("block_idx") < model->at("block_num"));
  CHECK_FALSE(samplePointModel({Expr::cmp("sgt", x, c(3)), Expr::cmp("slt", x, c(2))}, none));
}

TEST_CASE("solver: a witness the points cannot reach comes from Z3's optimiser, bounded by the budget") {
  using K = Expr::Kind;
  // x + y = 50000 and x - y = 20000: one model, far beyond the search's budget of points, with
  // two symbols in arithmetic (no exact decision applies).
  auto x = p("%x"), y = p("%y");
  std::vector<ExprPtr> q{Expr::cmp("eq", bin(K::Add, x, y), c(50000)), Expr::cmp("eq", bin(K::Sub, x, y), c(20000))};
  CHECK(smallestSatisfyingPoint(q, {x, y}, {}, false).outcome == PointSearch::Outcome::Undecided);
  clearSolverCache();
  Solver s;
  auto a = s.check(q, {x, y});
  REQUIRE(a.kind == SatAnswer::Kind::Sat);
  CHECK(a.values == std::vector<std::optional<int64_t>>{35000, 15000});
  CHECK(s.stats().samplePointAnswers == 0);
  CHECK(s.stats().queryMs.size() == 1);  // Z3 ran
  // x + y >= 50000: the optimiser picks the cheapest model; with under 100 ms of the kernel's
  // budget left it is skipped and Z3's first model is kept (still a model).
  std::vector<ExprPtr> atLeast{Expr::cmp("sge", bin(K::Add, x, y), c(50000)), Expr::cmp("sge", bin(K::Sub, x, y), c(20000))};
  clearSolverCache();
  Solver roomy;
  auto best = roomy.check(atLeast, {x, y});
  REQUIRE(best.kind == SatAnswer::Kind::Sat);
  CHECK(*best.values[0] + *best.values[1] >= 50000);
  CHECK(*best.values[0] - *best.values[1] >= 20000);
  CHECK(std::abs(*best.values[0]) + std::abs(*best.values[1]) == 50000);  // minimal: x = 35000.., y = 15000..
  // A choice Z3's first model takes the costly way (x = 90000): the optimiser picks y = 40000.
  // Division and remainder by constants are linear arithmetic, still minimised.
  std::vector<ExprPtr> either{exprOr(Expr::cmp("sge", x, c(90000)), Expr::cmp("sge", y, c(40000))),
                              Expr::cmp("sge", bin(K::Add, x, y), c(30000)),
                              Expr::cmp("eq", bin(K::Rem, y, c(2)), c(0)),
                              Expr::cmp("eq", bin(K::Mul, bin(K::Div, x, c(3)), c(3)), x)};
  clearSolverCache();
  auto cheapest = Solver().check(either, {x, y});
  REQUIRE(cheapest.kind == SatAnswer::Kind::Sat);
  CHECK(cheapest.values == std::vector<std::optional<int64_t>>{0, 40000});
  // A product of two symbols: Z3's first model is the witness (its optimiser is not asked), and
  // after the yes/no question the model that answered it is reused: Z3 runs once.
  std::vector<ExprPtr> product{Expr::cmp("sge", bin(K::Mul, x, y), c(50000 * 20000)),
                               Expr::cmp("sge", bin(K::Sub, x, y), c(20000))};
  clearSolverCache();
  Solver asked(z3Only());
  REQUIRE(asked.check(product, {}, Solver::Model::None).kind == SatAnswer::Kind::Sat);
  auto some = asked.check(product, {x, y});
  REQUIRE(some.kind == SatAnswer::Kind::Sat);
  CHECK(*some.values[0] * *some.values[1] >= 50000 * 20000);
  CHECK(*some.values[0] - *some.values[1] >= 20000);
  CHECK(asked.stats().queryMs.size() == 1);
  // A bound on Z3's work: past it the answer is `unknown` (on any machine), not a model.
  clearSolverCache();
  SatAnswer bounded = Solver(z3Only()).check(either, {}, Solver::Model::None, QueryBounds{UINT_MAX, 1});
  CHECK(bounded.kind == SatAnswer::Kind::Unknown);
  CHECK(bounded.reason == "Z3 stopped at its bound of 1 resource units");
  clearSolverCache();
  CHECK(Solver(z3Only()).check(either, {}, Solver::Model::None, QueryBounds{UINT_MAX, 1000000}).kind ==
        SatAnswer::Kind::Sat);
  SolverOptions tight;
  tight.kernelBudgetMs = 60;
  clearSolverCache();
  Solver hurried(tight);
  auto first = hurried.check(atLeast, {x, y});
  if (first.kind == SatAnswer::Kind::Sat) {
    CHECK(*first.values[0] + *first.values[1] >= 50000);
    CHECK(*first.values[0] - *first.values[1] >= 20000);
  } else {
    CHECK(first.reason.find("budget") != std::string::npos);  // a slow machine spent it all
  }
}

TEST_CASE("evalConst: no folding past 64 bits, substituted leaves fold") {
  using K = Expr::Kind;
  CHECK_FALSE(evalConst(bin(K::Add, c(INT64_MAX), c(1))).has_value());
  CHECK_FALSE(evalConst(bin(K::Div, c(INT64_MIN), c(-1))).has_value());
  CHECK_FALSE(evalConst(bin(K::Rem, c(INT64_MIN), c(-1))).has_value());
  CHECK(evalConst(bin(K::Mul, c(1) , c(-8))) == -8);
  auto e = bin(K::Add, p("%x"), c(1));
  CHECK_FALSE(evalConst(e).has_value());
  auto folded = substitute(e, [](const Expr& leaf) { return leaf.kind == K::Param ? c(41) : nullptr; });
  CHECK(evalConst(folded) == 42);
}

TEST_CASE("substitute folds what the bound values decide: selects, comparisons over choices, && and ||") {
  using K = Expr::Kind;
  auto i = Expr::loopVar("i");
  auto g = p("%g");
  auto bindI = [&](int64_t v) {
    return [v](const Expr& leaf) { return leaf.kind == K::LoopVar ? c(v) : nullptr; };
  };
  // (i eq 0) ? 3 : 2 with i = 0 is 3; the else arm is gone.
  auto pick = Expr::select(Expr::cmp("eq", i, c(0)), c(3), c(2));
  CHECK(evalConst(substitute(pick, bindI(0))) == 3);
  // A mode picked from {3, 2} by a condition still open is never 0: "mode eq 0" is false.
  auto mode = Expr::select(Expr::cmp("sgt", bin(K::Add, i, c(1)), g), c(3), c(2));
  CHECK(evalConst(substitute(Expr::cmp("eq", mode, c(0)), bindI(5))) == 0);
  // ... while "mode eq 3" depends on %g and stays open.
  CHECK_FALSE(evalConst(substitute(Expr::cmp("eq", mode, c(3)), bindI(5))).has_value());
  // A guard conjunct decided false makes the guard false; one decided true drops out.
  auto guard = exprAnd(Expr::cmp("slt", i, c(1)), Expr::cmp("sgt", g, c(0)));
  CHECK(evalConst(substitute(guard, bindI(4))) == 0);
  auto kept = substitute(guard, bindI(0));
  CHECK(kept->kind == K::Cmp);
  CHECK(toString(kept) == toString(Expr::cmp("sgt", g, c(0))));
  CHECK(evalConst(substitute(exprOr(Expr::cmp("eq", i, c(2)), g), bindI(2))) == 1);
}

TEST_CASE("trace: exact unrolling, the kept tail of long loops, symbolic iterations") {
  auto count = [](const Trace& t, OpKind k) {
    size_t n = 0;
    for (const auto& op : t.ops) n += op.op->kind == k;
    return n;
  };
  std::string head = "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n";
  std::string set = "      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n";
  auto trace = [&](const std::string& ub) {
    auto ks = liftText(kernelText("%n: index", head + "    %c6 = arith.constant 6 : index\n"
                                                      "    %c100 = arith.constant 100 : index\n"
                                                      "    scf.for %i = %c0 to " + ub + " step %c1 {\n" + set + "    }\n"));
    REQUIRE(ks.size() == 1);
    static std::vector<Kernel> keep;  // the trace points into the kernel
    keep.push_back(std::move(ks[0]));
    return unrollKernel(keep.back());
  };
  Trace six = trace("%c6");
  CHECK(count(six, OpKind::SetFlag) == 6);
  CHECK(six.approximations.empty());
  for (size_t k = 0; k < 6; ++k) CHECK(evalConst((*six.ops[k].iteration)[0].second) == static_cast<int64_t>(k));
  // 100 iterations: 0, 1, then 98 and 99 (98 = 2 * floor(98 / 2)), with the parity kept.
  Trace hundred = trace("%c100");
  REQUIRE(count(hundred, OpKind::SetFlag) == 4);
  CHECK(evalConst((*hundred.ops[2].iteration)[0].second) == 98);
  CHECK(evalConst((*hundred.ops[3].iteration)[0].second) == 99);
  CHECK(hundred.approximations.size() == 1);
  // Symbolic: five guarded copies; zero trips is a real case (every guard false with n = 0).
  Trace sym = trace("%n");
  REQUIRE(count(sym, OpKind::SetFlag) == 5);
  Solver s;
  std::vector<ExprPtr> noneRuns{Expr::cmp("eq", Expr::param("%n", 0), c(0))};
  for (size_t k = 0; k < 5; ++k) {
    auto q = noneRuns;
    q.push_back(sym.ops[k].guard);
    CHECK(s.check(q).kind == SatAnswer::Kind::Unsat);
  }
  // With n = 3 exactly iterations 0, 1 and 2 run.
  auto a = s.check({Expr::cmp("eq", Expr::param("%n", 0), c(3))},
                   {sym.ops[0].guard, sym.ops[1].guard, sym.ops[2].guard, sym.ops[3].guard, sym.ops[4].guard});
  REQUIRE(a.kind == SatAnswer::Kind::Sat);
  int runs = 0;
  for (auto v : a.values) runs += v.value_or(0) != 0;
  CHECK(runs == 3);
}

TEST_CASE("trace: a kernel sure to exceed the instance limit is given up before it is built, unless its prefix is wanted") {
  std::string head = "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
                     "    %c9 = arith.constant 9 : index\n";
  std::string set = "pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n";
  // `depth` loops of 9 trips around one set: at least 5^depth instances (9 > kExactTrip keeps 5).
  bool keepPrefix = false;
  auto nest = [&](int depth, const std::string& innerUb) {
    std::string body = set;
    for (int d = depth - 1; d >= 0; --d)
      body = "scf.for %i" + std::to_string(d) + " = %c0 to " + (d == depth - 1 ? innerUb : std::string("%c9")) +
             " step %c1 {\n" + body + "}\n";
    auto ks = liftText(kernelText("", head + body));
    REQUIRE(ks.size() == 1);
    static std::vector<Kernel> keep;  // the trace points into the kernel
    keep.push_back(std::move(ks[0]));
    return unrollKernel(keep.back(), keepPrefix);
  };
  Trace deep = nest(7, "%c9");  // 5^7 = 78,125 sets and the return > 20,000
  CHECK_FALSE(deep.complete);
  CHECK_FALSE(deep.prefix);
  CHECK(deep.ops.empty());
  CHECK(deep.incompleteReason.find("at least 78126 op instances") != std::string::npos);
  // Asked for its prefix: its first kMaxPrefixOps instances in issue order, the same reason.
  keepPrefix = true;
  Trace first = nest(7, "%c9");
  keepPrefix = false;
  CHECK_FALSE(first.complete);
  CHECK(first.prefix);
  CHECK(first.ops.size() == kMaxPrefixOps);
  CHECK(first.incompleteReason == deep.incompleteReason);
  CHECK(evalConst((*first.ops[1].iteration).back().second) == 1);  // innermost iteration 1 next
  // Six levels (15,625) fit; the estimate must not refuse what the walk can build.
  Trace fits = nest(6, "%c9");
  CHECK(fits.complete);
  CHECK(fits.ops.size() == 15625 + 1);  // and the return
  // An inner bound that is only constant once the outer loop is bound counts as no instances
  // in the estimate, so the walk decides (here: within the limit).
  Trace bound = nest(6, "%i4");
  CHECK(bound.complete);
}
