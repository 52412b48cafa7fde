// Guard implication for the analyses that compare pairs of trace ops (analysis/pipe_races):
// does a guard hold whenever two others do, by shape first and by Z3 only when shapes do not
// decide; can two guards never hold together. Results are cached by shape.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "solver/proofs.h"
#include "solver/sample_points.h"

namespace ptov {

namespace {

// `g` and, through nested ands, each of its conjuncts (iteratively: guards nest as deep as
// the kernel's branches and loops).
void conjuncts(const ExprPtr& g, std::vector<ExprPtr>& out) {
  std::vector<const ExprPtr*> todo;
  if (g) todo.push_back(&g);
  while (!todo.empty()) {
    const ExprPtr& e = *todo.back();
    todo.pop_back();
    out.push_back(e);
    if (e->kind == Expr::Kind::And)
      for (auto a = e->args.rbegin(); a != e->args.rend(); ++a)
        if (*a) todo.push_back(&*a);
  }
}

// `into` := into ∪ from, both sorted.
void unionInto(std::vector<int>& into, const std::vector<int>& from) {
  std::vector<int> merged;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged));
  into.swap(merged);
}

}  // namespace

// Structural identity by hash-consing: equal trees get equal ids, in time linear in the nodes.
// The map keeps each node alive, so a freed node's address can never alias a new one.
int ProofContext::shapeId(const ExprPtr& e) {
  if (!e) return -1;
  auto it = shapeIds_.find(e.get());
  if (it != shapeIds_.end()) return it->second.second;
  // The fields' bytes, each string after its length, the argument ids last: unambiguous, and
  // built without the number-to-text conversions that were most of the time here.
  std::string shape;
  auto put = [&shape](const auto& v) { shape.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(static_cast<int>(e->kind));
  put(e->value);
  put(e->paramIndex);
  put(e->pred.size());
  shape += e->pred;
  put(e->name.size());
  shape += e->name;
  for (const auto& a : e->args) put(shapeId(a));
  int id = shapes_.emplace(std::move(shape), static_cast<int>(shapes_.size())).first->second;
  shapeIds_.emplace(e.get(), std::make_pair(e, id));
  return id;
}

// The shapes known to hold when `a` holds: its conjuncts, and for a later loop iteration's
// presence the earlier iterations' (sorted, cached per node).
const std::vector<int>& ProofContext::knownShapes(const ExprPtr& a) {
  auto it = knownShapes_.find(a.get());
  if (it != knownShapes_.end()) return it->second.second;
  std::vector<ExprPtr> known;
  conjuncts(a, known);
  std::vector<int> ids;
  for (const auto& k : known) {
    ids.push_back(shapeId(k));
    auto earlier = trace().earlierIterations.find(k.get());
    if (earlier != trace().earlierIterations.end())
      for (const auto& e : earlier->second) ids.push_back(shapeId(e));
  }
  std::sort(ids.begin(), ids.end());
  return knownShapes_.emplace(a.get(), std::make_pair(a, std::move(ids))).first->second.second;
}

bool ProofContext::impliedByShape(const ExprPtr& g, const ExprPtr& a, const ExprPtr& b) {
  if (evalConst(g) == std::optional<int64_t>(1)) return true;
  // g (or each conjunct of g) is a conjunct of a or b. Guards of different loop copies are
  // built separately, so compare structure, not pointers.
  const std::vector<int>& ka = knownShapes(a);
  const std::vector<int>& kb = knownShapes(b);
  auto known = [&](const ExprPtr& e) {
    int id = shapeId(e);
    return std::binary_search(ka.begin(), ka.end(), id) || std::binary_search(kb.begin(), kb.end(), id);
  };
  if (known(g)) return true;
  if (g->kind != Expr::Kind::And) return false;
  for (const auto& c : g->args)
    if (evalConst(c) != std::optional<int64_t>(1) && !known(c)) return false;
  return true;
}

const std::vector<int>& ProofContext::symbolsOf(const ExprPtr& root) {
  static const std::vector<int> none;
  if (!root) return none;
  auto known = symbolsOf_.find(root.get());
  if (known != symbolsOf_.end()) return known->second.second;
  // Post order without recursion (guards nest as deep as the kernel's branches and loops).
  std::vector<std::pair<const ExprPtr*, bool>> todo{{&root, false}};
  while (!todo.empty()) {
    auto [e, childrenDone] = todo.back();
    todo.pop_back();
    if (!*e || symbolsOf_.count(e->get())) continue;
    const Expr& x = **e;
    if (!childrenDone) {
      todo.push_back({e, true});
      for (const auto& a : x.args) todo.push_back({&a, false});
      continue;
    }
    std::vector<int> out;
    if (x.args.empty() && x.symbolic)
      out.push_back(symbolIds_.emplace(solverSymbolName(x), static_cast<int>(symbolIds_.size())).first->second);
    for (const auto& a : x.args)
      if (a) unionInto(out, symbolsOf_.at(a.get()).second);
    symbolsOf_.emplace(e->get(), std::make_pair(*e, std::move(out)));
  }
  return symbolsOf_.at(root.get()).second;
}

bool ProofContext::implied(const ExprPtr& g, const ExprPtr& a, const ExprPtr& b) {
  // By shape: a node's address can be reused once it is freed; a shape id cannot.
  std::tuple<int, int, int> k{shapeId(g), shapeId(a), shapeId(b)};
  auto cached = impliedCache_.find(k);
  if (cached != impliedCache_.end()) return cached->second;
  bool result = impliedByShape(g, a, b);
  // Not implied, without asking the solver: a sync op that never runs, or one whose guard has a
  // conjunct naming a value that neither access's guard nor the launch facts constrain (the
  // branch of another iteration, a value read in it). Such a conjunct is implied only if it
  // holds for every value of that symbol (`x == x`), which generated guards are not.
  if (!result && evalConst(g) == std::optional<int64_t>(0)) return impliedCache_[k] = false;
  if (!result) {
    if (!assumptionSymbols_) {
      assumptionSymbols_.emplace();
      for (const auto& x : trace().assumptions) unionInto(*assumptionSymbols_, symbolsOf(x));
    }
    const std::vector<int>& sa = symbolsOf(a);
    const std::vector<int>& sb = symbolsOf(b);
    auto constrained = [&](int s) {
      return std::binary_search(sa.begin(), sa.end(), s) || std::binary_search(sb.begin(), sb.end(), s) ||
             std::binary_search(assumptionSymbols_->begin(), assumptionSymbols_->end(), s);
    };
    std::vector<ExprPtr> parts;
    conjuncts(g, parts);
    for (const auto& part : parts) {
      if (part->kind == Expr::Kind::And) continue;  // its conjuncts are in `parts` too
      const std::vector<int>& sp = symbolsOf(part);
      if (!std::all_of(sp.begin(), sp.end(), constrained)) return impliedCache_[k] = false;
    }
  }
  if (!result) {
    std::vector<ExprPtr> q = trace().assumptions;
    q.push_back(a);
    q.push_back(b);
    q.push_back(exprNot(g));
    result = solver_.check(q, {}, Solver::Model::None).kind == SatAnswer::Kind::Unsat;
  }
  impliedCache_[k] = result;
  return result;
}

// What the shape of a guard says, as sorted shape ids: its conjuncts, the values its `!x`
// conjuncts negate, and the constants its `v == c` conjuncts give values.
const ProofContext::GuardFacts& ProofContext::guardFacts(const ExprPtr& g) {
  int key = shapeId(g);
  auto it = guardFacts_.find(key);
  if (it != guardFacts_.end()) return it->second;
  std::vector<ExprPtr> cs;
  conjuncts(g, cs);
  GuardFacts f;
  for (const auto& c : cs) {
    f.conjuncts.push_back(shapeId(c));
    if (c->kind == Expr::Kind::Not && !c->args.empty()) f.negated.push_back(shapeId(c->args[0]));
    if (c->kind == Expr::Kind::Cmp && c->pred == "eq" && c->args.size() == 2)
      if (auto v = evalConst(c->args[1])) f.equalities.emplace_back(shapeId(c->args[0]), *v);
  }
  std::sort(f.conjuncts.begin(), f.conjuncts.end());
  std::sort(f.negated.begin(), f.negated.end());
  std::sort(f.equalities.begin(), f.equalities.end());
  return guardFacts_.emplace(key, std::move(f)).first->second;
}

// Does a conjunct of `a` contradict the conjuncts of `b` by its shape: it negates one of them,
// or it compares a value for equality with a constant that `b` compares it with differently?
static bool contradicts(const ProofContext::GuardFacts& a, const ProofContext::GuardFacts& b) {
  for (int n : a.negated)
    if (std::binary_search(b.conjuncts.begin(), b.conjuncts.end(), n)) return true;
  for (const auto& [value, constant] : a.equalities) {
    auto other = std::lower_bound(b.equalities.begin(), b.equalities.end(), std::make_pair(value, INT64_MIN));
    for (; other != b.equalities.end() && other->first == value; ++other)
      if (other->second != constant) return true;
  }
  return false;
}

// Two guards that cannot hold together by their shape (the arms of a switch, `c` and `!c`).
// Cheaper than the solver, and most pairs of a kernel with variants are such.
bool ProofContext::exclusiveGuards(const ExprPtr& a, const ExprPtr& b) {
  auto k = std::make_pair(shapeId(a), shapeId(b));
  auto it = exclusiveCache_.find(k);
  if (it != exclusiveCache_.end()) return it->second;
  const GuardFacts& fa = guardFacts(a);
  const GuardFacts& fb = guardFacts(b);
  return exclusiveCache_[k] = contradicts(fa, fb) || contradicts(fb, fa);
}


}  // namespace ptov
