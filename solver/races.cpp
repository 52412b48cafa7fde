// sync-pipe-race's encoding (docs/solver.md, "Pipe races"). Happens-before on one core: each
// pipe runs its ops in issue order; set_flag on pipe X followed (in issue order) by the
// matching wait_flag on pipe Y orders everything before the set on X before everything after
// the wait on Y; a wait on PIPE_S stalls issue, so it orders the waited-for pipe before every
// later op; pipe_barrier(p) holds issue until pipe p drains; pipe_barrier(PIPE_ALL), GM fences
// and all-core barriers order everything. Only sync
// ops that run on every path where both accesses run count; whether the two accesses overlap
// on some feasible path is a Z3 query over their GM boxes and guards.
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

// The pipe a memory access runs on, or Unknown for ops that are not plain accesses (sync,
// tile bookkeeping). An access that names its own pipe (a phase of TPUT / TGET) runs there.
Pipe accessPipe(const Op& op, const MemRef& m) {
  if (m.pipe != Pipe::Unknown) return m.pipe;
  switch (op.kind) {
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::ScalarLoad:
    case OpKind::ScalarStore:
    case OpKind::Compute:
      if (op.pipes.empty() || op.pipes.front() == Pipe::ALL) return Pipe::Unknown;
      return op.pipes.front();
    default: return Pipe::Unknown;
  }
}

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

bool ordersEverything(const Op& op) {
  return (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) || op.kind == OpKind::Fence ||
         op.kind == OpKind::SyncAll;
}

struct TileRange {
  int64_t begin = 0, end = 0;
  bool known = false;
};

// Where in its root tile an access through a view starts, when known (MemRef::tileView);
// nullopt: anywhere in the root (or not a view).
std::optional<int64_t> offsetInRoot(const MemRef& m) {
  return m.tileViewOffset && m.tileViewBytes > 0 ? m.tileViewOffset : std::nullopt;
}

// "TSTORE reads ub %acc [0, 4096)" / "tstore writes gm %dst offsets (0, %i) sizes (1, 64)":
// a racing access as the witness draws it.
RacingAccess accessText(const Op& op, const TraceAccess& x, const TileRange* tile) {
  RacingAccess r{op.name + (x.write ? " writes " : " reads ") + memSpaceName(x.ref->space) + " " + x.ref->value};
  if (!x.ref->tileView.empty()) r.text += " through " + x.ref->tileView;
  if (tile && tile->known) {
    std::optional<int64_t> inRoot = offsetInRoot(*x.ref);
    r.rangeBegin = inRoot ? tile->begin + *inRoot : tile->begin;
    r.rangeEnd = inRoot ? r.rangeBegin + x.ref->tileViewBytes : tile->end;
    r.text += " [" + std::to_string(r.rangeBegin) + ", " + std::to_string(r.rangeEnd) + ")";
    return r;
  }
  auto list = [](const std::vector<ExprPtr>& v) {
    std::string o;
    for (const auto& e : v) o += (o.empty() ? "" : ", ") + toString(e);
    return "(" + o + ")";
  };
  if (!x.offsets.empty()) r.text += " offsets " + list(x.offsets) + " sizes " + list(x.sizes);
  return r;
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

std::vector<ProofContext::SyncStep> ProofContext::syncSteps() {
  std::vector<SyncStep> out;
  const Trace& t = trace();
  for (size_t k = 0; k < t.ops.size(); ++k) {
    const Op& op = *t.ops[k].op;
    if (ordersEverything(op)) {
      out.push_back({k, SyncStep::Kind::All, Pipe::Unknown, Pipe::Unknown, "", nullptr});
    } else if (op.kind == OpKind::PipeBarrier) {
      out.push_back({k, SyncStep::Kind::Drain, op.barrierPipe, op.barrierPipe, "", nullptr});
    } else if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) {
      auto c = evalConst(t.ops[k].eventId);
      out.push_back({k, op.kind == OpKind::SetFlag ? SyncStep::Kind::Set : SyncStep::Kind::Wait, op.event.src,
                     op.event.dst, c ? std::to_string(*c) : toString(t.ops[k].eventId), t.ops[k].eventId});
    }
  }
  return out;
}

bool ProofContext::ordered(const std::vector<SyncStep>& syncs, size_t from, size_t to, Pipe first, Pipe second) {
  std::vector<ExprPtr> split;
  return orderedAssuming(syncs, from, to, first, second, trace().ops[from].guard, split);
}

// Ordered on every path: the sync ops that run whenever both accesses run (and the `split`
// branch conditions assumed in `ga`) are walked in issue order. When they do not order the two,
// a branch whose condition neither holds nor fails there is split on, both arms: the two arms of
// an if/else that each order the accesses their own way (MTE2 -> V -> MTE3 in one, MTE2 -> MTE3
// in the other) order them on every path. At most kMaxSplits conditions are split on.
bool ProofContext::orderedAssuming(const std::vector<SyncStep>& syncs, size_t from, size_t to, Pipe first,
                                   Pipe second, const ExprPtr& ga, std::vector<ExprPtr>& split) {
  constexpr size_t kMaxSplits = 3;
  const Trace& t = trace();
  const ExprPtr& gb = t.ops[to].guard;
  std::set<Pipe> reached{first};
  std::vector<const SyncStep*> pending;  // events set after `from` on a reached pipe
  // A wait takes a pending set of its pipes whose id is the same: spelled the same, or equal
  // whenever both accesses run (a loop's tail copy waits on (p0 + m) % 2, its set took 0).
  auto takes = [&](const SyncStep& wait, const SyncStep& set) {
    if (set.src != wait.src || set.dst != wait.dst) return false;
    if (set.event == wait.event) return true;
    return set.id && wait.id && implied(exprEq(set.id, wait.id), ga, gb);
  };
  ExprPtr undecided;
  auto begin = std::upper_bound(syncs.begin(), syncs.end(), from, [](size_t i, const SyncStep& s) { return i < s.index; });
  for (auto s = begin; s != syncs.end() && s->index < to; ++s) {
    const ExprPtr& g = t.ops[s->index].guard;
    // A step that cannot change what is reached here needs no implication query, unless it
    // may be the branch to split on (the first step not implied).
    bool canMatter = s->kind == SyncStep::Kind::All ||
                     (s->kind == SyncStep::Kind::Wait
                          ? std::any_of(pending.begin(), pending.end(),
                                        [&](const SyncStep* set) { return set->src == s->src && set->dst == s->dst; })
                          : reached.count(s->src) > 0);
    if (!canMatter && (undecided || split.size() >= kMaxSplits)) continue;
    if (!implied(g, ga, gb)) {
      bool splitAlready = std::any_of(split.begin(), split.end(), [&](const ExprPtr& x) { return shapeId(x) == shapeId(g); });
      if (!undecided && !splitAlready && split.size() < kMaxSplits) undecided = g;
      continue;
    }
    switch (s->kind) {
      case SyncStep::Kind::All: return true;
      // pipe_barrier(p) holds issue until pipe p drains (the drain PTOAS puts before TNOTIFY).
      case SyncStep::Kind::Drain:
        if (reached.count(s->src)) return true;
        break;
      case SyncStep::Kind::Set:
        if (reached.count(s->src)) pending.push_back(&*s);
        break;
      case SyncStep::Kind::Wait:
        if (std::none_of(pending.begin(), pending.end(), [&](const SyncStep* set) { return takes(*s, *set); })) break;
        if (s->dst == Pipe::S) return true;  // the scalar unit issues everything after the wait
        reached.insert(s->dst);
        break;
    }
  }
  if (reached.count(second)) return true;
  if (!undecided) return false;
  split.push_back(undecided);
  bool both = orderedAssuming(syncs, from, to, first, second, exprAnd(ga, undecided), split) &&
              orderedAssuming(syncs, from, to, first, second, exprAnd(ga, exprNot(undecided)), split);
  split.pop_back();
  return both;
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

ProofContext::PipeRaces ProofContext::pipeRaces() {
  PipeRaces result;
  std::vector<PipeRace>& out = result.races;
  const Trace& t = trace();
  if (!t.complete) {
    result.notChecked = "the kernel could not be unrolled: " + t.incompleteReason;
    return result;
  }
  // Constant tile placements (alloc_tile addr= / tassign); a tile placed at two addresses is
  // compared by name only.
  std::map<std::string, TileRange> tiles;
  std::set<std::string> ambiguous;
  forEachOp(*kernel_.body, [&](const Op& op) {
    if ((op.kind != OpKind::TileAlloc && op.kind != OpKind::TileAssign) || !op.tileAddr || op.tileBytes <= 0) return;
    TileRange r{*op.tileAddr, *op.tileAddr + op.tileBytes, true};
    auto it = tiles.find(op.tileValue);
    if (it != tiles.end() && (it->second.begin != r.begin || it->second.end != r.end)) ambiguous.insert(op.tileValue);
    tiles[op.tileValue] = r;
  });
  for (const auto& a : ambiguous) tiles.erase(a);
  // Every buffer reference reduced to numbers once: the loop below compares each access with
  // every access in its window.
  struct Place {
    int space, param, value, view;  // names as ids (view -1: none)
    bool peer;
    const TileRange* tile;
    const MemRef* ref;  // for the bytes of its root an access through a view covers
  };
  std::unordered_map<std::string, int> ids;
  auto id = [&](const std::string& name) { return ids.emplace(name, static_cast<int>(ids.size())).first->second; };
  const int gm = static_cast<int>(MemSpace::GM);  // Place::space: the MemSpace
  std::unordered_map<const MemRef*, Place> placeOf;
  std::vector<std::vector<Pipe>> pipeOf(t.ops.size());
  std::vector<std::vector<const Place*>> placesOf(t.ops.size());
  for (size_t k = 0; k < t.ops.size(); ++k) {
    for (const TraceAccess& x : t.ops[k].accesses) {
      pipeOf[k].push_back(accessPipe(*t.ops[k].op, *x.ref));
      auto it = placeOf.find(x.ref);
      if (it == placeOf.end()) {
        auto tile = tiles.find(x.ref->value);
        Place pl{static_cast<int>(x.ref->space), x.ref->param, id(x.ref->value), x.ref->view.empty() ? -1 : id(x.ref->view),
                 x.ref->peer, tile == tiles.end() ? nullptr : &tile->second, x.ref};
        it = placeOf.emplace(x.ref, pl).first;
      }
      placesOf[k].push_back(&it->second);
    }
  }
  // Do two accesses touch the same bytes? Decided without building an expression where it can
  // be: 0 no, 1 yes, 2 when the GM boxes need the solver (then `boxOverlap` builds the condition).
  auto overlapKind = [&](const Place& a, const Place& b, const TraceAccess& x, const TraceAccess& y) -> int {
    if (a.space != b.space) return 0;
    if (a.space == gm) {
      if (a.param < 0 || a.param != b.param || a.peer != b.peer) return 0;
      bool boxes = a.view >= 0 && a.view == b.view && x.offsets.size() == y.offsets.size() &&
                   x.sizes.size() == x.offsets.size() && y.sizes.size() == y.offsets.size() && !x.offsets.empty();
      if (!boxes) return a.value == b.value ? 1 : 0;
      return 2;
    }
    // Two views of one root overlap unless both are known to lie in disjoint bytes of it (line
    // by line for strided column slices); two slots chosen by the loop counters, where their
    // byte ranges meet in those iterations (the solver decides).
    if (a.value == b.value) {
      if (offsetInRoot(*a.ref) && offsetInRoot(*b.ref)) return a.ref->tileViewSharesBytes(*b.ref) ? 1 : 0;
      bool slots = x.offsets.size() == 1 && y.offsets.size() == 1 && x.sizes.size() == 1 && y.sizes.size() == 1;
      return slots ? 2 : 1;
    }
    if (!a.tile || !b.tile) return 0;
    // Two placed tiles: the bytes each access covers in the space, line by line (a contiguous
    // access, the common case, is one range: compared without building lists).
    auto span = [](const Place& p) {
      std::optional<int64_t> inRoot = offsetInRoot(*p.ref);
      if (!inRoot) return std::make_pair(p.tile->begin, p.tile->end);
      return std::make_pair(p.tile->begin + *inRoot, p.tile->begin + *inRoot + p.ref->tileViewBytes);
    };
    auto [aBegin, aEnd] = span(a);
    auto [bBegin, bEnd] = span(b);
    if (aEnd <= bBegin || bEnd <= aBegin) return 0;
    auto strided = [](const Place& p) {
      return offsetInRoot(*p.ref) && p.ref->tileViewLineBytes > 0 && p.ref->tileViewLines > 1;
    };
    if (!strided(a) && !strided(b)) return 1;
    auto bytes = [](const Place& p) {
      std::optional<int64_t> inRoot = offsetInRoot(*p.ref);
      if (!inRoot) return std::vector<std::pair<int64_t, int64_t>>{{p.tile->begin, p.tile->end}};
      std::vector<std::pair<int64_t, int64_t>> out;
      for (const auto& [b, e] : p.ref->tileViewBytesAt(*inRoot)) out.push_back({p.tile->begin + b, p.tile->begin + e});
      return out;
    };
    return rangesMeet(bytes(a), bytes(b)) ? 1 : 0;
  };
  // Both boxes are non-empty (a size ptoverify cannot compute is still a size) and share a point.
  auto boxOverlap = [&](const TraceAccess& x, const TraceAccess& y) -> ExprPtr {
    ExprPtr all = exprTrue();
    for (size_t d = 0; d < x.offsets.size(); ++d) {
      all = exprAnd(all, exprAnd(Expr::cmp("sgt", x.sizes[d], Expr::constant(0)),
                                 Expr::cmp("sgt", y.sizes[d], Expr::constant(0))));
      ExprPtr xEnd = Expr::binary(Expr::Kind::Add, x.offsets[d], x.sizes[d]);
      ExprPtr yEnd = Expr::binary(Expr::Kind::Add, y.offsets[d], y.sizes[d]);
      all = exprAnd(all, exprAnd(Expr::cmp("slt", x.offsets[d], yEnd), Expr::cmp("slt", y.offsets[d], xEnd)));
    }
    return all;
  };
  const std::vector<SyncStep> syncs = syncSteps();
  // The accessing ops of each (space, pipe), in trace order: an access is compared only with
  // earlier accesses on other pipes in its own space.
  std::map<std::pair<int, Pipe>, std::vector<size_t>> opsOn;
  for (size_t k = 0; k < t.ops.size(); ++k) {
    for (size_t x = 0; x < placesOf[k].size(); ++x) {
      if (pipeOf[k][x] == Pipe::Unknown) continue;
      auto& list = opsOn[{placesOf[k][x]->space, pipeOf[k][x]}];
      if (list.empty() || list.back() != k) list.push_back(k);
    }
  }
  std::set<std::pair<const Op*, const Op*>> reported;
  const size_t kWindow = 4000;
  for (size_t j = 0; j < t.ops.size(); ++j) {
    if (budgetSpent()) {
      result.notChecked = solver_.budgetSpentReason() + "; the accesses of " + std::to_string(j) + " of " +
                          std::to_string(t.ops.size()) + " trace ops were compared";
      return result;
    }
    for (size_t xbIndex = 0; xbIndex < t.ops[j].accesses.size(); ++xbIndex) {
      const TraceAccess& xb = t.ops[j].accesses[xbIndex];
      const Place& pb = *placesOf[j][xbIndex];
      const Pipe q = pipeOf[j][xbIndex];
      if (q == Pipe::Unknown) continue;
      std::vector<std::pair<size_t, PipeRace>> found;  // by the earlier access's trace index
      for (auto on = opsOn.lower_bound({pb.space, Pipe::S}); on != opsOn.end() && on->first.first == pb.space; ++on) {
        Pipe p = on->first.second;
        if (p == q) continue;
        // Walk back from j: the latest conflicting access on p decides whether older ones need
        // a look (settled).
        const std::vector<size_t>& earlier = on->second;
        bool settled = false;
        for (auto it = std::lower_bound(earlier.begin(), earlier.end(), j); it != earlier.begin() && !settled;) {
          size_t i = *--it;
          if (budgetSpent()) break;  // reported at the next j
          // Past the window the pair is not compared; the latest conflicting one says so.
          bool beyondWindow = j - i > kWindow;
          const TraceOp& a = t.ops[i];
          // mmadL1 -> fixpipe with unit flags: the hardware handshake orders them.
          if (a.op->unitFlag && t.ops[j].op->unitFlag) continue;
          for (size_t xaIndex = 0; xaIndex < a.accesses.size(); ++xaIndex) {
            const TraceAccess& xa = a.accesses[xaIndex];
            if (pipeOf[i][xaIndex] != p) continue;  // compared on its own pipe's list
            // A staging tile between two library phases: the library orders its own buffer.
            if (xa.ref->pipe != Pipe::Unknown && xb.ref->pipe != Pipe::Unknown && pb.space != gm) continue;
            if (!xa.write && !xb.write) continue;
            int kind = overlapKind(*placesOf[i][xaIndex], pb, xa, xb);
            if (kind == 0) continue;
            ExprPtr touch = kind == 1 ? exprTrue() : boxOverlap(xa, xb);
            if (evalConst(touch) == std::optional<int64_t>(0)) continue;
            if (reported.count({a.op, t.ops[j].op})) {
              settled = true;
              break;
            }
            if (exclusiveGuards(a.guard, t.ops[j].guard)) break;  // never both run
            if (beyondWindow) {
              found.emplace_back(i, PipeRace{a.op, t.ops[j].op, xa.ref, xb.ref, xa.write, xb.write,
                                             Verdict::unknown("the two accesses are more than " + std::to_string(kWindow) +
                                                              " trace ops apart, which are not compared")});
              reported.insert({a.op, t.ops[j].op});
              settled = true;
              break;
            }
            if (ordered(syncs, i, j, p, q)) {
              // In-order pipes: older accesses on p finish before this one, so when this one runs
              // whenever the later access does, the older ones are ordered too. By shape only:
              // a "no" just looks at the older ones one by one (same findings on corpus-real,
              // and no Z3 query on the fused kernel's entry.cpp).
              settled = impliedByShape(a.guard, t.ops[j].guard, exprTrue());
              break;
            }
            std::vector<ExprPtr> asserts = t.assumptions;
            asserts.push_back(a.guard);
            asserts.push_back(t.ops[j].guard);
            asserts.push_back(touch);
            SatAnswer ans = checkForWitness(asserts, witnessEvaluations());
            if (ans.kind == SatAnswer::Kind::Unsat) continue;
            PipeRace r{a.op, t.ops[j].op, xa.ref, xb.ref, xa.write, xb.write, verdictOf(ans)};
            if (r.verdict.kind == Verdict::Kind::Violated)
              r.verdict.witness = buildWitness(ans, 0, i, j, std::nullopt, [&](size_t k) {
                return k == i ? accessText(*a.op, xa, placesOf[i][xaIndex]->tile)
                              : accessText(*t.ops[j].op, xb, pb.tile);
              });
            reported.insert({a.op, t.ops[j].op});
            found.emplace_back(i, std::move(r));
            settled = true;
            break;
          }
        }
      }
      // Latest earlier access first, whatever its pipe (the order the findings have always had).
      std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
      for (auto& f : found) out.push_back(std::move(f.second));
    }
  }
  if (budgetSpent()) result.notChecked = solver_.budgetSpentReason() + " while the last accesses were compared";
  return result;
}

}  // namespace ptov
