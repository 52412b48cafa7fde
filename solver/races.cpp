// sync-pipe-race's encoding (docs/solver.md, "Pipe races"). Happens-before on one core: each
// pipe runs its ops in issue order; set_flag on pipe X followed (in issue order) by the
// matching wait_flag on pipe Y orders everything before the set on X before everything after
// the wait on Y; a wait on PIPE_S stalls issue, so it orders the waited-for pipe before every
// later op; pipe_barrier(p) holds issue until pipe p drains; pipe_barrier(PIPE_ALL), GM fences
// and all-core barriers order everything. Only sync
// ops that run on every path where both accesses run count; whether the two accesses overlap
// on some feasible path is a Z3 query over their GM boxes and guards.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "solver/proofs.h"

namespace ptov {
namespace {

// The pipe a memory access runs on, or Unknown for ops that are not plain accesses (sync,
// comm ops with their own internal sync, tile bookkeeping).
Pipe accessPipe(const Op& op) {
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

void conjuncts(const ExprPtr& g, std::vector<ExprPtr>& out) {
  if (!g) return;
  out.push_back(g);
  if (g->kind == Expr::Kind::And)
    for (const auto& a : g->args) conjuncts(a, out);
}

// Does a conjunct of `ca` contradict the conjuncts of `cb` by its shape: it negates one of them,
// or it compares a value for equality with a constant that `cb` compares it with differently?
bool contradicts(const std::vector<ExprPtr>& ca, const std::vector<ExprPtr>& cb,
                 const std::function<const std::string&(const ExprPtr&)>& key) {
  std::set<std::string> keysB;
  std::map<std::string, int64_t> eqB;  // value -> constant it equals in b
  for (const auto& c : cb) {
    keysB.insert(key(c));
    if (c->kind == Expr::Kind::Cmp && c->pred == "eq" && c->args.size() == 2)
      if (auto v = evalConst(c->args[1])) eqB[key(c->args[0])] = *v;
  }
  for (const auto& c : ca) {
    if (c->kind == Expr::Kind::Not && !c->args.empty() && keysB.count(key(c->args[0]))) return true;
    if (c->kind == Expr::Kind::Cmp && c->pred == "eq" && c->args.size() == 2)
      if (auto v = evalConst(c->args[1])) {
        auto it = eqB.find(key(c->args[0]));
        if (it != eqB.end() && it->second != *v) return true;
      }
  }
  return false;
}

// Two guards that cannot hold together by their shape (the arms of a switch, `c` and `!c`).
// Cheaper than the solver, and most pairs of a kernel with variants are such.
bool exclusive(const ExprPtr& a, const ExprPtr& b, const std::function<const std::string&(const ExprPtr&)>& key) {
  std::vector<ExprPtr> ca, cb;
  conjuncts(a, ca);
  conjuncts(b, cb);
  return contradicts(ca, cb, key) || contradicts(cb, ca, key);
}

bool ordersEverything(const Op& op) {
  return (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) || op.kind == OpKind::Fence ||
         op.kind == OpKind::SyncAll;
}

struct TileRange {
  int64_t begin = 0, end = 0;
  bool known = false;
};

}  // namespace

const std::string& ProofContext::key(const ExprPtr& e) {
  auto it = keys_.find(e.get());
  if (it != keys_.end()) return it->second;
  return keys_[e.get()] = fingerprint({e});
}

bool ProofContext::implied(const ExprPtr& g, const ExprPtr& a, const ExprPtr& b) {
  auto cached = impliedCache_.find({g.get(), a.get(), b.get()});
  if (cached != impliedCache_.end()) return cached->second;
  if (evalConst(g) == std::optional<int64_t>(1)) return impliedCache_[{g.get(), a.get(), b.get()}] = true;
  // Syntactically: g (or each conjunct of g) is a conjunct of a or b. Guards of different
  // loop copies are built separately, so compare structure, not pointers.
  std::vector<ExprPtr> known, need;
  conjuncts(a, known);
  conjuncts(b, known);
  std::set<std::string> knownKeys;
  for (const auto& k : known) {
    knownKeys.insert(key(k));
    // A later iteration's presence: the earlier iterations of the same loop ran too.
    auto earlier = trace().earlierIterations.find(k.get());
    if (earlier != trace().earlierIterations.end())
      for (const auto& e : earlier->second) knownKeys.insert(key(e));
  }
  bool syntactic = knownKeys.count(key(g)) > 0;
  if (!syntactic && g->kind == Expr::Kind::And) {
    syntactic = true;
    for (const auto& c : g->args) syntactic &= evalConst(c) == std::optional<int64_t>(1) || knownKeys.count(key(c)) > 0;
  }
  bool result = syntactic;
  if (!result) {
    std::vector<ExprPtr> q = trace().assumptions;
    q.push_back(a);
    q.push_back(b);
    q.push_back(exprNot(g));
    result = solver_.check(q, {}, Solver::Model::None).kind == SatAnswer::Kind::Unsat;
  }
  impliedCache_[{g.get(), a.get(), b.get()}] = result;
  return result;
}

bool ProofContext::ordered(size_t from, size_t to, Pipe first, Pipe second) {
  const Trace& t = trace();
  const ExprPtr& ga = t.ops[from].guard;
  const ExprPtr& gb = t.ops[to].guard;
  std::set<Pipe> reached{first};
  std::set<std::tuple<Pipe, Pipe, std::string>> pending;  // events set after `from` on a reached pipe
  for (size_t k = from + 1; k < to; ++k) {
    const TraceOp& s = t.ops[k];
    const Op& op = *s.op;
    bool sync = op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag || op.kind == OpKind::PipeBarrier ||
                ordersEverything(op);
    if (!sync || !implied(s.guard, ga, gb)) continue;
    if (ordersEverything(op)) return true;
    // pipe_barrier(p) holds issue until pipe p drains (the drain PTOAS puts before TNOTIFY).
    if (op.kind == OpKind::PipeBarrier) {
      if (reached.count(op.barrierPipe)) return true;
      continue;
    }
    auto c = evalConst(s.eventId);
    std::tuple<Pipe, Pipe, std::string> key{op.event.src, op.event.dst, c ? std::to_string(*c) : toString(s.eventId)};
    if (op.kind == OpKind::SetFlag) {
      if (reached.count(op.event.src)) pending.insert(key);
    } else if (pending.count(key)) {
      if (op.event.dst == Pipe::S) return true;  // the scalar unit issues everything after the wait
      reached.insert(op.event.dst);
    }
  }
  return reached.count(second) > 0;
}

bool ProofContext::exclusiveGuards(const ExprPtr& a, const ExprPtr& b) {
  auto k = std::make_pair(a.get(), b.get());
  auto it = exclusiveCache_.find(k);
  if (it != exclusiveCache_.end()) return it->second;
  return exclusiveCache_[k] = exclusive(a, b, [&](const ExprPtr& e) -> const std::string& { return key(e); });
}

std::vector<PipeRace> ProofContext::pipeRaces() {
  std::vector<PipeRace> out;
  const Trace& t = trace();
  if (!t.complete) return out;
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
  // The condition under which two accesses touch common bytes (constant 0: never).
  // Do two accesses touch the same bytes? Decided without building an expression where it can
  // be (the loop below asks this for every pair in the window): 0 no, 1 yes, 2 when the GM boxes
  // need the solver (then `boxOverlap` builds the condition).
  std::map<const MemRef*, const TileRange*> rangeOf;
  auto tileRange = [&](const MemRef* m) -> const TileRange* {
    auto it = rangeOf.find(m);
    if (it != rangeOf.end()) return it->second;
    auto t = tiles.find(m->value);
    return rangeOf[m] = t == tiles.end() ? nullptr : &t->second;
  };
  auto overlapKind = [&](const TraceAccess& x, const TraceAccess& y) -> int {
    const MemRef& a = *x.ref;
    const MemRef& b = *y.ref;
    if (a.space != b.space) return 0;
    if (a.space == "gm") {
      if (a.param < 0 || a.param != b.param || a.peer != b.peer) return 0;
      bool boxes = !a.view.empty() && a.view == b.view && x.offsets.size() == y.offsets.size() &&
                   x.sizes.size() == x.offsets.size() && y.sizes.size() == y.offsets.size() && !x.offsets.empty();
      if (!boxes) return a.value == b.value ? 1 : 0;
      return 2;
    }
    if (a.value == b.value) return 1;
    const TileRange* ta = tileRange(x.ref);
    const TileRange* tb = tileRange(y.ref);
    if (!ta || !tb) return 0;
    return ta->begin < tb->end && tb->begin < ta->end ? 1 : 0;
  };
  auto boxOverlap = [&](const TraceAccess& x, const TraceAccess& y) -> ExprPtr {
    ExprPtr all = Expr::constant(1);
    for (size_t d = 0; d < x.offsets.size(); ++d) {
      ExprPtr xEnd = Expr::binary(Expr::Kind::Add, x.offsets[d], x.sizes[d]);
      ExprPtr yEnd = Expr::binary(Expr::Kind::Add, y.offsets[d], y.sizes[d]);
      all = exprAnd(all, exprAnd(Expr::cmp("slt", x.offsets[d], yEnd), Expr::cmp("slt", y.offsets[d], xEnd)));
    }
    return all;
  };
  std::set<std::pair<const Op*, const Op*>> reported;
  const size_t kWindow = 4000;
  for (size_t j = 0; j < t.ops.size(); ++j) {
    Pipe q = accessPipe(*t.ops[j].op);
    if (q == Pipe::Unknown) continue;
    for (const TraceAccess& xb : t.ops[j].accesses) {
      std::set<Pipe> settled;  // pipes whose latest conflicting access is resolved for xb
      for (size_t i = j; i-- > 0 && j - i <= kWindow;) {
        const TraceOp& a = t.ops[i];
        Pipe p = accessPipe(*a.op);
        if (p == Pipe::Unknown || p == q || settled.count(p)) continue;
        // mmadL1 -> fixpipe with unit flags: the hardware handshake orders them.
        if (a.op->unitFlag && t.ops[j].op->unitFlag) continue;
        for (const TraceAccess& xa : a.accesses) {
          if (!xa.write && !xb.write) continue;
          int kind = overlapKind(xa, xb);
          if (kind == 0) continue;
          ExprPtr touch = kind == 1 ? Expr::constant(1) : boxOverlap(xa, xb);
          if (evalConst(touch) == std::optional<int64_t>(0)) continue;
          if (reported.count({a.op, t.ops[j].op})) {
            settled.insert(p);
            break;
          }
          if (exclusiveGuards(a.guard, t.ops[j].guard)) break;  // never both run
          if (ordered(i, j, p, q)) {
            // In-order pipes: older accesses on p finish before this one, so when this one runs
            // whenever the later access does, the older ones are ordered too.
            if (implied(a.guard, t.ops[j].guard, Expr::constant(1))) settled.insert(p);
            break;
          }
          std::vector<ExprPtr> asserts = t.assumptions;
          asserts.push_back(a.guard);
          asserts.push_back(t.ops[j].guard);
          asserts.push_back(touch);
          SatAnswer ans = solver_.check(asserts, witnessEvaluations());
          if (ans.kind == SatAnswer::Kind::Unsat) continue;
          PipeRace r{a.op, t.ops[j].op, xa.ref, xb.ref, xa.write, xb.write, verdictOf(ans)};
          if (r.verdict.kind == Verdict::Kind::Violated) r.verdict.witness = buildWitness(ans, 0, i, j, std::nullopt);
          reported.insert({a.op, t.ops[j].op});
          out.push_back(std::move(r));
          settled.insert(p);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace ptov
