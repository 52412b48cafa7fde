// sync-pipe-race's encoding (docs/solver.md, "Pipe races"). Happens-before on one core: each
// pipe runs its ops in issue order; set_flag on pipe X followed (in issue order) by the
// matching wait_flag on pipe Y orders everything before the set on X before everything after
// the wait on Y; a wait on PIPE_S stalls issue, so it orders the waited-for pipe before every
// later op; pipe_barrier(p) holds issue until pipe p drains; pipe_barrier(PIPE_ALL), GM fences
// and all-core barriers order everything. Only sync
// ops that run on every path where both accesses run count; whether the two accesses overlap
// on some feasible path is a Z3 query over their GM boxes and guards.
#include <algorithm>
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
  if (evalConst(g) == std::optional<int64_t>(1)) return true;
  auto cached = impliedCache_.find({g.get(), a.get(), b.get()});
  if (cached != impliedCache_.end()) return cached->second;
  // Syntactically: g (or each conjunct of g) is a conjunct of a or b. Guards of different
  // loop copies are built separately, so compare structure, not pointers.
  std::vector<ExprPtr> known, need;
  conjuncts(a, known);
  conjuncts(b, known);
  std::set<std::string> knownKeys;
  for (const auto& k : known) knownKeys.insert(key(k));
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
  auto overlap = [&](const TraceAccess& x, const TraceAccess& y) -> ExprPtr {
    const MemRef& a = *x.ref;
    const MemRef& b = *y.ref;
    if (a.space != b.space) return Expr::constant(0);
    if (a.space == "gm") {
      if (a.param < 0 || a.param != b.param || a.peer != b.peer) return Expr::constant(0);
      bool boxes = !a.view.empty() && a.view == b.view && x.offsets.size() == y.offsets.size() &&
                   x.sizes.size() == x.offsets.size() && y.sizes.size() == y.offsets.size() && !x.offsets.empty();
      if (!boxes) return Expr::constant(a.value == b.value ? 1 : 0);
      ExprPtr all = Expr::constant(1);
      for (size_t d = 0; d < x.offsets.size(); ++d) {
        ExprPtr xEnd = Expr::binary(Expr::Kind::Add, x.offsets[d], x.sizes[d]);
        ExprPtr yEnd = Expr::binary(Expr::Kind::Add, y.offsets[d], y.sizes[d]);
        all = exprAnd(all, exprAnd(Expr::cmp("slt", x.offsets[d], yEnd), Expr::cmp("slt", y.offsets[d], xEnd)));
      }
      return all;
    }
    if (a.value == b.value) return Expr::constant(1);
    auto ta = tiles.find(a.value), tb = tiles.find(b.value);
    if (ta == tiles.end() || tb == tiles.end()) return Expr::constant(0);
    return Expr::constant(ta->second.begin < tb->second.end && tb->second.begin < ta->second.end);
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
          ExprPtr touch = overlap(xa, xb);
          if (evalConst(touch) == std::optional<int64_t>(0)) continue;
          if (reported.count({a.op, t.ops[j].op})) {
            settled.insert(p);
            break;
          }
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
