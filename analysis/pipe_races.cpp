// sync-pipe-race's search (docs/solver.md, "Pipe races"). Happens-before on one core: each
// pipe runs its ops in issue order; set_flag on pipe X followed (in issue order) by the
// matching wait_flag on pipe Y orders everything before the set on X before everything after
// the wait on Y; a wait on PIPE_S stalls issue, so it orders the waited-for pipe before every
// later op; pipe_barrier(p) holds issue until pipe p drains; pipe_barrier(PIPE_ALL), GM fences
// and all-core barriers order everything. Only sync ops that run on every path where both
// accesses run count; whether the two accesses overlap on some feasible path is a Z3 query over
// their GM boxes and guards.
#include "analysis/pipe_races.h"

#include "analyzer/model/op_registry.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ptov {

// The pipe a memory access runs on, or Unknown for ops that are not plain accesses (sync,
// tile bookkeeping). An access that names its own pipe (a phase of TPUT / TGET) runs there.
Pipe accessPipe(const Op& op, const MemRef& m) { return ops::accessPipe(op, m); }

namespace {

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

bool hasUnknownLeaf(const ExprPtr& e) {
  if (!e) return false;
  if (e->kind == Expr::Kind::Unknown) return true;
  return std::any_of(e->args.begin(), e->args.end(), [](const ExprPtr& a) { return hasUnknownLeaf(a); });
}

// The trace's sync ops in issue order, with their event ids folded once.
struct SyncStep {
  size_t index;  // in the trace
  enum class Kind { All, Drain, Set, Wait } kind;
  Pipe src, dst;      // Set/Wait: the event's pipes; Drain: the drained pipe (both)
  std::string event;  // Set/Wait: the id, folded when constant
  ExprPtr id;         // Set/Wait: the id in this iteration (symbolic in a loop's tail copies)
};

// Every buffer reference reduced to numbers once: each access is compared with every access in
// its window.
// A value or view name interned once per search, so places compare by number.
using NameId = int;
constexpr NameId kNoName = -1;

struct Place {
  MemSpace space;
  int param;           // the kernel parameter, -1 none
  NameId value, view;  // view kNoName: none
  bool peer;
  const TileRange* tile;
  const MemRef* ref;  // for the bytes of its root an access through a view covers
};

// Do two accesses touch the same bytes? Decided without building an expression where it can
// be; Maybe when the GM boxes or slots need the solver (then `boxOverlap` builds the condition).
enum class Overlap { Never, Always, Maybe };

Overlap overlapKind(const Place& a, const Place& b, const TraceAccess& x, const TraceAccess& y) {
  using O = Overlap;
  auto when = [](bool meet) { return meet ? O::Always : O::Never; };
  if (a.space != b.space) return O::Never;
  if (a.space == MemSpace::GM) {
    if (a.param < 0 || a.param != b.param || a.peer != b.peer) return O::Never;
    bool boxes = a.view != kNoName && a.view == b.view && x.offsets.size() == y.offsets.size() &&
                 x.sizes.size() == x.offsets.size() && y.sizes.size() == y.offsets.size() && !x.offsets.empty();
    if (!boxes) return when(a.value == b.value);
    return O::Maybe;
  }
  // Two views of one root overlap unless both are known to lie in disjoint bytes of it (line
  // by line for strided column slices); two slots chosen by the loop counters, where their
  // byte ranges meet in those iterations (the solver decides).
  if (a.value == b.value) {
    if (offsetInRoot(*a.ref) && offsetInRoot(*b.ref)) return when(a.ref->tileViewSharesBytes(*b.ref));
    bool slots = x.offsets.size() == 1 && y.offsets.size() == 1 && x.sizes.size() == 1 && y.sizes.size() == 1;
    return slots ? O::Maybe : O::Always;
  }
  if (!a.tile || !b.tile) return O::Never;
  // Two placed tiles: the bytes each access covers in the space, line by line (a contiguous
  // access, the common case, is one range: compared without building lists).
  auto span = [](const Place& p) {
    std::optional<int64_t> inRoot = offsetInRoot(*p.ref);
    if (!inRoot) return std::make_pair(p.tile->begin, p.tile->end);
    return std::make_pair(p.tile->begin + *inRoot, p.tile->begin + *inRoot + p.ref->tileViewBytes);
  };
  auto [aBegin, aEnd] = span(a);
  auto [bBegin, bEnd] = span(b);
  if (aEnd <= bBegin || bEnd <= aBegin) return O::Never;
  auto strided = [](const Place& p) {
    return offsetInRoot(*p.ref) && p.ref->tileViewLineBytes > 0 && p.ref->tileViewLines > 1;
  };
  if (!strided(a) && !strided(b)) return O::Always;
  auto bytes = [](const Place& p) {
    std::optional<int64_t> inRoot = offsetInRoot(*p.ref);
    if (!inRoot) return std::vector<std::pair<int64_t, int64_t>>{{p.tile->begin, p.tile->end}};
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto& [b, e] : p.ref->tileViewBytesAt(*inRoot)) out.push_back({p.tile->begin + b, p.tile->begin + e});
    return out;
  };
  return when(rangesMeet(bytes(a), bytes(b)));
}

// Both boxes are non-empty (a size ptoverify cannot compute is still a size) and share a point.
ExprPtr boxOverlap(const TraceAccess& x, const TraceAccess& y) {
  ExprPtr all = exprTrue();
  for (size_t d = 0; d < x.offsets.size(); ++d) {
    all = exprAnd(
        all, exprAnd(Expr::cmp("sgt", x.sizes[d], Expr::constant(0)), Expr::cmp("sgt", y.sizes[d], Expr::constant(0))));
    ExprPtr xEnd = Expr::binary(Expr::Kind::Add, x.offsets[d], x.sizes[d]);
    ExprPtr yEnd = Expr::binary(Expr::Kind::Add, y.offsets[d], y.sizes[d]);
    all = exprAnd(all, exprAnd(Expr::cmp("slt", x.offsets[d], yEnd), Expr::cmp("slt", y.offsets[d], xEnd)));
  }
  return all;
}

// One search over a kernel's trace, asking its ProofContext whether guards imply each other and
// whether an overlap is feasible.
class RaceSearch {
 public:
  explicit RaceSearch(ProofContext& pc) : pc_(pc), t_(pc.trace()) {}
  PipeRaces run();

 private:
  static constexpr size_t kWindow = 4000;  // trace ops apart beyond which a pair is not compared
  // The static question is a filter: past its bounds, the copies are asked one by one (their
  // boxes hold constants where the static one has symbols, and often decide faster). Z3's work is
  // what bounds it: with a 250 ms time limit alone, moe_dispatch's filter for one pair (decided in
  // 150-300 ms) timed out in 8 of 100 runs, and its copies then cost 10-14 s and one
  // `unknown` more. The time limit is a backstop for nonlinear queries, whose work Z3 does not
  // count fully (flash attention's: 170,000 units, 0.5-0.8 s).
  static constexpr QueryBounds kEverOverlapBounds{1000, 600000};

  void placeTiles();
  void placeAccesses();
  std::vector<SyncStep> syncSteps();
  // Which sync ops between two accesses count as running: those the later access's guard implies
  // by shape, those the earlier one's implies by shape (no solver query either way), or those that
  // run whenever both run, splitting on branches (solver queries).
  enum class Runs { ByLaterGuard, ByEarlierGuard, OnEveryPath };
  // The trace index of the sync op by which trace op `to` (on pipe `second`) is ordered after
  // `from` (on `first`), counting the sync ops `runs` admits; kNone when they do not order it.
  // ByLaterGuard: a yes orders every older access on `first` too (more sync ops between only
  // order more). ByEarlierGuard: a yes orders every later access on `second` after that index.
  static constexpr size_t kNone = SIZE_MAX;
  size_t orderPoint(size_t from, size_t to, Pipe first, Pipe second, Runs runs, const ExprPtr& ga,
                    std::vector<ExprPtr>& split);
  bool ordered(size_t from, size_t to, Pipe first, Pipe second, Runs runs);
  // ByEarlierGuard, kept per (access, pipe pair): the walk from an access is the same for every
  // later access up to its end, and found once it holds for all later ones.
  struct EarlierGuardOrder {
    size_t at = kNone, searchedTo = 0;
  };
  std::map<std::tuple<size_t, Pipe, Pipe>, EarlierGuardOrder> earlierGuardOrder_;
  // A wait on the pipes of a pending set whose ids the model cannot compare (an id the front end
  // does not compute): whether it orders the pair is not known. Set by the walks of one pair.
  std::string undecidedId_;
  // The races of access `xbIndex` of trace op `j` with earlier accesses on pipe `p`, latest
  // first until one settles the older ones.
  void compareOnPipe(size_t j, size_t xbIndex, Pipe p, const std::vector<size_t>& earlier,
                     std::vector<std::pair<size_t, PipeRace>>& found);

  // Can any instance of access `x` overlap any instance of `y`, in any iterations of the loops
  // around each (in their ranges), whatever the guards and the order? No: every copy of the
  // pair is left out, which asks the solver once per pair of static accesses instead of once per
  // pair of unrolled copies.
  bool mayEverOverlap(const TraceAccess& x, const TraceAccess& y);
  // Can trace op `k` run at all? Asked once per op that meets a candidate pair: an instance
  // whose guard no path satisfies (an accumulation mode the loop never picks) is one query, not
  // one per pair it would be in.
  bool mayRun(size_t k);
  void findLoops(const Stmt& s, std::vector<const Stmt*>& around);

  ProofContext& pc_;
  const Trace& t_;
  // The loops around each access, outermost first.
  std::unordered_map<const MemRef*, std::vector<const Stmt*>> loopsOf_;
  std::map<std::pair<const MemRef*, const MemRef*>, bool> everOverlap_;
  std::vector<int8_t> mayRun_;              // per trace op: -1 not asked, 0 never runs, 1 may run
  std::map<std::string, TileRange> tiles_;  // constant placements by tile
  std::unordered_map<std::string, NameId> ids_;
  std::unordered_map<const MemRef*, Place> placeOf_;
  std::vector<std::vector<Pipe>> pipeOf_;                      // per trace op, per access
  std::vector<std::vector<const Place*>> placesOf_;            // per trace op, per access
  std::map<std::pair<MemSpace, Pipe>, std::vector<size_t>> opsOn_;  // accessing trace ops per (space, pipe)
  std::vector<SyncStep> syncs_;
  std::set<std::pair<const Op*, const Op*>> reported_;
  // Pairs of source ops already shown racing: another inlined instance of the same two calls (a
  // template instantiated per tiling key) is the same defect, not one more witness to build. The
  // op names tell apart the phases one call is modelled as (TPUT's load and its store).
  using Sites = std::tuple<std::string, int, int, std::string, std::string, int, int, std::string>;
  static Sites sitesOf(const Op& a, const Op& b) {
    return {a.loc.file, a.loc.line, a.loc.col, a.name, b.loc.file, b.loc.line, b.loc.col, b.name};
  }
  std::set<Sites> shownRacing_;
};

void RaceSearch::findLoops(const Stmt& s, std::vector<const Stmt*>& around) {
  if (s.kind == Stmt::Kind::OpStmt) {
    for (const auto* refs : {&s.op.reads, &s.op.writes})
      for (const MemRef& m : *refs) loopsOf_[&m] = around;
    return;
  }
  if (s.kind == Stmt::Kind::For) around.push_back(&s);
  for (const auto& c : s.children)
    if (c) findLoops(*c, around);
  if (s.kind == Stmt::Kind::For) around.pop_back();
}

// One side of the question: the access's box with each loop variable around it a symbol of its
// own in the loop's range, and its unknown values its own (the two sides may be in different
// iterations; values shared in one iteration are free on each side, which only widens it).
struct StaticBox {
  std::vector<ExprPtr> facts, offsets, sizes;
};

static StaticBox staticBox(const MemRef& m, const std::vector<const Stmt*>& loops, const std::string& side) {
  StaticBox box;
  LoopBindings env;
  auto bind = [&](const ExprPtr& e) {
    if (!e) return e;
    return substitute(e, [&](const Expr& leaf) -> ExprPtr {
      if (leaf.kind == Expr::Kind::LoopVar) return innermostBinding(env, leaf.name);
      if (leaf.kind == Expr::Kind::Unknown) return Expr::unknown(leaf.name + "@" + side);
      return nullptr;
    });
  };
  for (const Stmt* loop : loops) {
    ExprPtr lb = bind(loop->lb), ub = bind(loop->ub), step = bind(loop->step);
    ExprPtr v = Expr::unknown("iteration of " + loop->var + "@" + std::to_string(env.size()) + "@" + side);
    box.facts.push_back(Expr::cmp("sle", lb, v));
    box.facts.push_back(Expr::cmp("slt", v, ub));
    auto c = evalConst(step);
    if (!c) box.facts.push_back(Expr::cmp("sgt", step, Expr::constant(0)));
    if (c && *c > 1)
      box.facts.push_back(
          exprEq(Expr::binary(Expr::Kind::Rem, Expr::binary(Expr::Kind::Sub, v, lb), step), Expr::constant(0)));
    env.emplace_back(&loop->var, v);
  }
  for (const auto& e : m.offsets) box.offsets.push_back(bind(e));
  for (const auto& e : m.sizes) box.sizes.push_back(bind(e));
  return box;
}

bool RaceSearch::mayEverOverlap(const TraceAccess& x, const TraceAccess& y) {
  auto [it, fresh] = everOverlap_.emplace(std::make_pair(x.ref, y.ref), true);
  if (!fresh) return it->second;
  auto lx = loopsOf_.find(x.ref), ly = loopsOf_.find(y.ref);
  if (lx == loopsOf_.end() || ly == loopsOf_.end()) return true;
  StaticBox bx = staticBox(*x.ref, lx->second, "first"), by = staticBox(*y.ref, ly->second, "second");
  TraceAccess gx{x.ref, x.write, bx.offsets, bx.sizes}, gy{y.ref, y.write, by.offsets, by.sizes};
  std::vector<ExprPtr> asserts = t_.assumptions;
  asserts.insert(asserts.end(), bx.facts.begin(), bx.facts.end());
  asserts.insert(asserts.end(), by.facts.begin(), by.facts.end());
  asserts.push_back(boxOverlap(gx, gy));
  it->second =
      pc_.solver().check(asserts, {}, Solver::Model::None, kEverOverlapBounds).kind != SatAnswer::Kind::Unsat;
  return it->second;
}

bool RaceSearch::mayRun(size_t k) {
  if (mayRun_.empty()) mayRun_.assign(t_.ops.size(), -1);
  if (mayRun_[k] < 0) {
    std::vector<ExprPtr> asserts = t_.assumptions;
    asserts.push_back(t_.ops[k].guard);
    mayRun_[k] = pc_.solver().check(asserts, {}, Solver::Model::None).kind != SatAnswer::Kind::Unsat;
  }
  return mayRun_[k] != 0;
}

std::vector<SyncStep> RaceSearch::syncSteps() {
  std::vector<SyncStep> out;
  const Trace& t = t_;
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

bool RaceSearch::ordered(size_t from, size_t to, Pipe first, Pipe second, Runs runs) {
  std::vector<ExprPtr> split;
  if (runs != Runs::ByEarlierGuard)
    return orderPoint(from, to, first, second, runs, t_.ops[from].guard, split) != kNone;
  EarlierGuardOrder& known = earlierGuardOrder_[{from, first, second}];
  if (known.at == kNone && to > known.searchedTo) {
    known.at = orderPoint(from, to, first, second, runs, t_.ops[from].guard, split);
    known.searchedTo = to;
  }
  return known.at < to;
}

// Ordered on every path: the sync ops that run whenever both accesses run (and the `split`
// branch conditions assumed in `ga`) are walked in issue order. When they do not order the two,
// a branch whose condition neither holds nor fails there is split on, both arms: the two arms of
// an if/else that each order the accesses their own way (MTE2 -> V -> MTE3 in one, MTE2 -> MTE3
// in the other) order them on every path. At most kMaxSplits conditions are split on. The two
// walks by one guard's shape split nothing. The index returned is where the order holds (with a
// split, the later of the two arms').
size_t RaceSearch::orderPoint(size_t from, size_t to, Pipe first, Pipe second, Runs runs, const ExprPtr& ga,
                              std::vector<ExprPtr>& split) {
  const bool maySplit = runs == Runs::OnEveryPath;
  const size_t kMaxSplits = maySplit ? 3 : 0;
  const Trace& t = t_;
  const ExprPtr& gb = t.ops[to].guard;
  auto holds = [&](const ExprPtr& g) {
    switch (runs) {
      case Runs::ByLaterGuard: return pc_.impliedByShape(g, gb, exprTrue());
      case Runs::ByEarlierGuard: return pc_.impliedByShape(g, ga, exprTrue());
      case Runs::OnEveryPath: break;
    }
    return pc_.implied(g, ga, gb);
  };
  std::set<Pipe> reached{first};
  std::vector<const SyncStep*> pending;  // events set after `from` on a reached pipe
  // A wait takes a pending set of its pipes whose id is the same: spelled the same, or equal
  // whenever both accesses run (a loop's tail copy waits on (p0 + m) % 2, its set took 0).
  auto takes = [&](const SyncStep& wait, const SyncStep& set) {
    if (set.src != wait.src || set.dst != wait.dst) return false;
    if (set.event == wait.event) return true;
    if (set.id && wait.id && holds(exprEq(set.id, wait.id))) return true;
    // An id the front end could not compute decides nothing here: no witness may pick its value.
    if (hasUnknownLeaf(set.id) || hasUnknownLeaf(wait.id))
      undecidedId_ = "whether the wait_flag at line " + std::to_string(t.ops[wait.index].op->loc.line) +
                     " takes the set_flag at line " + std::to_string(t.ops[set.index].op->loc.line) +
                     " is not known: their event ids (" + set.event + ", " + wait.event +
                     ") are values the front end does not compute";
    return false;
  };
  ExprPtr undecided;
  auto begin =
      std::upper_bound(syncs_.begin(), syncs_.end(), from, [](size_t i, const SyncStep& s) { return i < s.index; });
  for (auto s = begin; s != syncs_.end() && s->index < to; ++s) {
    const ExprPtr& g = t.ops[s->index].guard;
    // A step that cannot change what is reached here needs no implication query, unless it
    // may be the branch to split on (the first step not implied).
    bool canMatter = s->kind == SyncStep::Kind::All ||
                     (s->kind == SyncStep::Kind::Wait
                          ? std::any_of(pending.begin(), pending.end(),
                                        [&](const SyncStep* set) { return set->src == s->src && set->dst == s->dst; })
                          : reached.count(s->src) > 0);
    if (!canMatter && (undecided || split.size() >= kMaxSplits)) continue;
    if (!holds(g)) {
      bool splitAlready =
          std::any_of(split.begin(), split.end(), [&](const ExprPtr& x) { return pc_.shapeId(x) == pc_.shapeId(g); });
      if (!undecided && !splitAlready && split.size() < kMaxSplits) undecided = g;
      continue;
    }
    switch (s->kind) {
      case SyncStep::Kind::All:
        return s->index;
      // pipe_barrier(p) holds issue until pipe p drains (the drain PTOAS puts before TNOTIFY).
      case SyncStep::Kind::Drain:
        if (reached.count(s->src)) return s->index;
        break;
      case SyncStep::Kind::Set:
        if (reached.count(s->src)) pending.push_back(&*s);
        break;
      case SyncStep::Kind::Wait:
        if (std::none_of(pending.begin(), pending.end(), [&](const SyncStep* set) { return takes(*s, *set); })) break;
        // The scalar unit issues everything after a wait on it; a pipe once reached stays so.
        if (s->dst == Pipe::S || s->dst == second) return s->index;
        reached.insert(s->dst);
        break;
    }
  }
  if (!undecided) return kNone;
  split.push_back(undecided);
  size_t then = orderPoint(from, to, first, second, runs, exprAnd(ga, undecided), split);
  size_t otherwise =
      then == kNone ? kNone : orderPoint(from, to, first, second, runs, exprAnd(ga, exprNot(undecided)), split);
  split.pop_back();
  return then == kNone || otherwise == kNone ? kNone : std::max(then, otherwise);
}

// Constant tile placements (alloc_tile addr= / tassign); a tile placed at two addresses is
// compared by name only.
void RaceSearch::placeTiles() {
  std::set<std::string> ambiguous;
  forEachOp(*pc_.kernel().body, [&](const Op& op) {
    if ((op.kind != OpKind::TileAlloc && op.kind != OpKind::TileAssign) || !op.tileAddr || op.tileBytes <= 0) return;
    TileRange r{*op.tileAddr, *op.tileAddr + op.tileBytes, true};
    auto it = tiles_.find(op.tileValue);
    if (it != tiles_.end() && (it->second.begin != r.begin || it->second.end != r.end)) ambiguous.insert(op.tileValue);
    tiles_[op.tileValue] = r;
  });
  for (const auto& a : ambiguous) tiles_.erase(a);
}

// Each access's pipe and place, and the accessing ops of each (space, pipe) in trace order: an
// access is compared only with earlier accesses on other pipes in its own space.
void RaceSearch::placeAccesses() {
  auto id = [&](const std::string& name) { return ids_.emplace(name, static_cast<NameId>(ids_.size())).first->second; };
  pipeOf_.resize(t_.ops.size());
  placesOf_.resize(t_.ops.size());
  for (size_t k = 0; k < t_.ops.size(); ++k) {
    for (const TraceAccess& x : t_.ops[k].accesses) {
      pipeOf_[k].push_back(accessPipe(*t_.ops[k].op, *x.ref));
      auto it = placeOf_.find(x.ref);
      if (it == placeOf_.end()) {
        auto tile = tiles_.find(x.ref->value);
        Place pl{x.ref->space,
                 x.ref->param,
                 id(x.ref->value),
                 x.ref->view.empty() ? kNoName : id(x.ref->view),
                 x.ref->peer,
                 tile == tiles_.end() ? nullptr : &tile->second,
                 x.ref};
        it = placeOf_.emplace(x.ref, pl).first;
      }
      placesOf_[k].push_back(&it->second);
    }
  }
  for (size_t k = 0; k < t_.ops.size(); ++k) {
    if (evalConst(t_.ops[k].guard) == std::optional<int64_t>(0)) continue;  // an instance that never runs
    for (size_t x = 0; x < placesOf_[k].size(); ++x) {
      if (pipeOf_[k][x] == Pipe::Unknown) continue;
      auto& list = opsOn_[{placesOf_[k][x]->space, pipeOf_[k][x]}];
      if (list.empty() || list.back() != k) list.push_back(k);
    }
  }
}

void RaceSearch::compareOnPipe(size_t j, size_t xbIndex, Pipe p, const std::vector<size_t>& earlier,
                               std::vector<std::pair<size_t, PipeRace>>& found) {
  const TraceAccess& xb = t_.ops[j].accesses[xbIndex];
  const Place& pb = *placesOf_[j][xbIndex];
  const Pipe q = pipeOf_[j][xbIndex];
  const TraceOp& b = t_.ops[j];
  // Walk back from j: the latest conflicting access on p decides whether older ones need a look
  // (settled).
  bool settled = false;
  for (auto it = std::lower_bound(earlier.begin(), earlier.end(), j); it != earlier.begin() && !settled;) {
    size_t i = *--it;
    if (pc_.budgetSpent()) break;  // reported at the next j
    // Past the window the pair is not compared; the latest conflicting one says so.
    bool beyondWindow = j - i > kWindow;
    const TraceOp& a = t_.ops[i];
    // mmadL1 -> fixpipe with unit flags: the hardware handshake orders them.
    if (a.op->unitFlag && b.op->unitFlag) continue;
    for (size_t xaIndex = 0; xaIndex < a.accesses.size(); ++xaIndex) {
      const TraceAccess& xa = a.accesses[xaIndex];
      if (pipeOf_[i][xaIndex] != p) continue;  // compared on its own pipe's list
      // A staging tile between two library phases: the library orders its own buffer.
      if (xa.ref->pipe != Pipe::Unknown && xb.ref->pipe != Pipe::Unknown && pb.space != MemSpace::GM)
        continue;
      if (!xa.write && !xb.write) continue;
      Overlap kind = overlapKind(*placesOf_[i][xaIndex], pb, xa, xb);
      if (kind == Overlap::Never) continue;
      ExprPtr touch = kind == Overlap::Always ? exprTrue() : boxOverlap(xa, xb);
      if (evalConst(touch) == std::optional<int64_t>(0)) continue;
      if (reported_.count({a.op, b.op}) || shownRacing_.count(sitesOf(*a.op, *b.op))) {
        settled = true;
        break;
      }
      if (pc_.exclusiveGuards(a.guard, b.guard)) break;  // never both run
      if (!mayRun(j)) return;
      if (!mayRun(i)) break;
      // In-order pipes: older accesses on p finish before this one, so when the sync ops that
      // order it run whenever the later access does, the older ones are ordered too.
      undecidedId_.clear();
      if (!beyondWindow && ordered(i, j, p, q, Runs::ByLaterGuard)) {
        settled = true;
        break;
      }
      // Asked only for pairs the cheap walks leave unordered (the static question costs more
      // than they do, less than the full walk); a no spares every copy of the pair.
      if (kind == Overlap::Maybe && !mayEverOverlap(xa, xb)) continue;
      if (!beyondWindow && (ordered(i, j, p, q, Runs::ByEarlierGuard) || ordered(i, j, p, q, Runs::OnEveryPath))) {
        // When this one runs whenever the later access does, the older ones are ordered too. By
        // shape only: a "no" just looks at the older ones one by one (same findings on
        // corpus-real, and no Z3 query on the fused kernel's entry.cpp).
        settled = pc_.impliedByShape(a.guard, b.guard, exprTrue());
        break;
      }
      if (beyondWindow || !undecidedId_.empty()) {
        found.emplace_back(i, PipeRace{a.op, b.op, xa.ref, xb.ref, xa.write, xb.write,
                                       Verdict::unknown(beyondWindow ? "the two accesses are more than " +
                                                                           std::to_string(kWindow) +
                                                                           " trace ops apart, which are not compared"
                                                                     : undecidedId_)});
        reported_.insert({a.op, b.op});
        settled = true;
        break;
      }
      std::vector<ExprPtr> asserts = t_.assumptions;
      asserts.push_back(a.guard);
      asserts.push_back(b.guard);
      asserts.push_back(touch);
      SatAnswer ans = pc_.checkForWitness(asserts, pc_.witnessEvaluations());
      if (ans.kind == SatAnswer::Kind::Unsat) continue;
      PipeRace r{a.op, b.op, xa.ref, xb.ref, xa.write, xb.write, verdictOf(ans)};
      if (r.verdict.kind == Verdict::Kind::Violated) {
        r.verdict.witness = pc_.buildWitness(ans, 0, i, j, std::nullopt, [&](size_t k) {
          return k == i ? accessText(*a.op, xa, placesOf_[i][xaIndex]->tile) : accessText(*b.op, xb, pb.tile);
        });
        shownRacing_.insert(sitesOf(*a.op, *b.op));
      }
      reported_.insert({a.op, b.op});
      found.emplace_back(i, std::move(r));
      settled = true;
      break;
    }
  }
}

PipeRaces RaceSearch::run() {
  PipeRaces result;
  if (!t_.complete) {
    result.notChecked = "the kernel could not be unrolled: " + t_.incompleteReason;
    return result;
  }
  std::vector<const Stmt*> around;
  findLoops(*pc_.kernel().body, around);
  placeTiles();
  placeAccesses();
  syncs_ = syncSteps();
  for (size_t j = 0; j < t_.ops.size(); ++j) {
    if (pc_.budgetSpent()) {
      result.notChecked = pc_.solver().budgetSpentReason() + "; the accesses of " + std::to_string(j) + " of " +
                          std::to_string(t_.ops.size()) + " trace ops were compared";
      return result;
    }
    if (evalConst(t_.ops[j].guard) == std::optional<int64_t>(0)) continue;
    for (size_t xbIndex = 0; xbIndex < t_.ops[j].accesses.size(); ++xbIndex) {
      const MemSpace space = placesOf_[j][xbIndex]->space;
      const Pipe q = pipeOf_[j][xbIndex];
      if (q == Pipe::Unknown) continue;
      std::vector<std::pair<size_t, PipeRace>> found;  // by the earlier access's trace index
      for (auto on = opsOn_.lower_bound({space, Pipe{}}); on != opsOn_.end() && on->first.first == space; ++on)
        if (on->first.second != q) compareOnPipe(j, xbIndex, on->first.second, on->second, found);
      // Latest earlier access first, whatever its pipe (the order the findings have always had).
      std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
      for (auto& f : found) result.races.push_back(std::move(f.second));
    }
  }
  if (pc_.budgetSpent())
    result.notChecked = pc_.solver().budgetSpentReason() + " while the last accesses were compared";
  return result;
}

}  // namespace

PipeRaces findPipeRaces(ProofContext& proofs) {
  return RaceSearch(proofs).run();
}

}  // namespace ptov
