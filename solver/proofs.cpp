#include "solver/proofs.h"

#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/op_registry.h"

#include <algorithm>
#include <set>

namespace ptov {

std::string eventText(const EventKey& k) {
  return std::string("[") + pipeName(std::get<0>(k)) + ", " + pipeName(std::get<1>(k)) + ", EVENT_ID" +
         std::to_string(std::get<2>(k)) + "]";
}

namespace {

constexpr int64_t kMaxEventId = 7;

ExprPtr selectFold(const ExprPtr& c, const ExprPtr& a, const ExprPtr& b) {
  if (auto k = evalConst(c)) return *k ? a : b;
  auto ca = evalConst(a), cb = evalConst(b);
  if (ca && cb && *ca == *cb) return a;
  return Expr::select(c, a, b);
}

bool containsUnknown(const ExprPtr& e) {
  if (!e) return true;
  bool found = false;
  substitute(e, [&](const Expr& leaf) -> ExprPtr {
    if (leaf.kind == Expr::Kind::Unknown) found = true;
    return nullptr;
  });
  return found;
}

bool isEventOp(const Op& op) {
  return (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) && op.event.src != Pipe::Unknown &&
         op.event.dst != Pipe::Unknown;
}

std::string iterationText(const TraceOp& t, const std::vector<std::optional<int64_t>>& values, size_t base) {
  std::string s;
  for (size_t i = 0; i < t.iteration->size(); ++i) {
    s += (s.empty() ? " in iteration " : ", ") + (*t.iteration)[i].first + " = ";
    const auto& v = values[base + i];
    s += v ? std::to_string(*v) : "?";
  }
  return s;
}

std::string opText(const Op& op, std::optional<int64_t> id) {
  if (isEventOp(op))
    return op.name + " " + eventText({op.event.src, op.event.dst, id.value_or(-1)});
  return op.name;
}

bool isWitnessOp(const Op& op) {
  switch (op.kind) {
    case OpKind::SetFlag:
    case OpKind::WaitFlag:
    case OpKind::PipeBarrier:
    case OpKind::SyncAll:
    case OpKind::CrossCoreSet:
    case OpKind::CrossCoreWait:
    case OpKind::Notify:
    case OpKind::Wait:
    case OpKind::Test:
    case OpKind::Fence:
    case OpKind::CacheInvalidate:
    case OpKind::Return: return true;
    default: return false;
  }
}

}  // namespace

struct ProofContext::Levels {
  std::map<EventKey, ExprPtr> atExit;       // key -> level when the kernel ends
  std::map<size_t, ExprPtr> firstStuck;     // wait instance -> "the first wait to find its event clear"
  std::map<size_t, ExprPtr> overwrite;      // set instance -> "its event is already set"
  ExprPtr reachesExit;                      // no wait got stuck on the way to the end
  std::set<std::pair<Pipe, Pipe>> opaquePairs;  // some id depends on a value we cannot compute
  std::vector<EventKey> keys;
};

ProofContext::ProofContext(const Kernel& k, Solver& solver) : kernel_(k), solver_(solver) {}
ProofContext::~ProofContext() = default;

namespace {
// How far back the shape folding of event levels looks (levelWhen, levelAtEndIs).
constexpr size_t kFoldWindow = 64;
const char* kLaneA = "lane_a.block_idx";
const char* kLaneB = "lane_b.block_idx";
// The first value in `e` the front end could not compute ("" if none).
std::string unknownLeaf(const ExprPtr& e) {
  std::string found;
  if (e)
    substitute(e, [&](const Expr& leaf) -> ExprPtr {
      if (leaf.kind == Expr::Kind::Unknown && found.empty()) found = leaf.name;
      return nullptr;
    });
  return found;
}
// The instances of a barrier's ops in the trace, in order.
std::vector<const TraceOp*> instancesOf(const Trace& t, const std::vector<const Op*>& barrier) {
  std::vector<const TraceOp*> out;
  for (const auto& op : t.ops)
    if (std::find(barrier.begin(), barrier.end(), op.op) != barrier.end()) out.push_back(&op);
  return out;
}
// Why a proof over these arrivals' participant counts cannot be decided ("" when it can).
std::string uncomputedCount(const std::vector<const TraceOp*>& arrivals) {
  for (const TraceOp* a : arrivals)
    if (std::string u = unknownLeaf(a->participants); !u.empty())
      return "the participant count of '" + a->op->name + "' is not computed ('" + u + "')";
  return "";
}
// `e` as seen by one lane: the block index becomes that lane's own symbol.
ExprPtr onLane(const ExprPtr& e, const char* lane) {
  return substitute(e, [lane](const Expr& leaf) -> ExprPtr {
    return leaf.kind == Expr::Kind::BlockIdx ? Expr::loopVar(lane) : nullptr;
  });
}
}  // namespace

bool ProofContext::budgetSpent() {
  if (!budgetSpent_ && (++workSteps_ & 4095) == 0) budgetSpent_ = solver_.kernelBudgetSpent();
  return budgetSpent_;
}

const Flow& ProofContext::flow() {
  if (!flow_) flow_ = Flow::build(*kernel_.body);
  return *flow_;
}

const Trace& ProofContext::trace() {
  if (trace_) return *trace_;
  // The event questions can still be asked of a prefix (Trace::prefix); nothing else can.
  bool eventOps = false;
  forEachOp(*kernel_.body, [&](const Op& op) { eventOps |= isEventOp(op); });
  trace_ = unrollKernel(kernel_, eventOps);
  addLaunchFacts(*trace_);
  return *trace_;
}

// What the run knows about the launch: the block_num every linked launch gives, and the
// --param-range of a C++ scalar: an entry parameter of that name, or the variable a wrapper
// unpacks it into (`num_tokens = args[kNumTokens]`: the range of num_tokens bounds args[15]).
void ProofContext::addLaunchFacts(Trace& t) const {
  if (auto lanes = kernel_.launchedLanes()) t.assumptions.push_back(exprEq(Expr::blockNum(), Expr::constant(*lanes)));
  if (!kernel_.cpp) return;
  auto within = [&t](const ExprPtr& v, int64_t lo, int64_t hi) {
    t.assumptions.push_back(Expr::cmp("sge", v, Expr::constant(lo)));
    t.assumptions.push_back(Expr::cmp("sle", v, Expr::constant(hi)));
  };
  for (const auto& shape : kernel_.cpp->shapeParams)
    t.assumptions.push_back(Expr::cmp("sge", Expr::param(shape, -1), Expr::constant(0)));
  for (const auto& b : kernel_.cpp->bounded) within(b.value, b.lo, b.hi);
  for (const auto& [name, range] : solver_.options().paramRanges) {
    // An entry's own scalar parameter of that name (`int s0` of a __global__ kernel).
    for (size_t i = 0; i < kernel_.params.size(); ++i)
      if (kernel_.params[i].name == name && !kernel_.params[i].isPointer)
        within(Expr::param(name, static_cast<int>(i)), range.first, range.second);
    for (const auto& u : kernel_.cpp->unpacks)
      if (!u.tensor && u.index && u.var == name) within(Expr::param(argsSlot(*u.index), -1), range.first, range.second);
  }
}

Verdict ProofContext::unknownTrace() {
  return Verdict::unknown("the kernel could not be unrolled: " + trace().incompleteReason);
}

// A wait's or set's question over a prefix: a violation there is one whatever follows; no
// violation there proves nothing.
Verdict ProofContext::overPrefix(Verdict v) {
  if (trace().complete || v.kind != Verdict::Kind::Proved) return v;
  return Verdict::unknown("the kernel could not be unrolled (" + trace().incompleteReason + "); its first " +
                          std::to_string(trace().ops.size()) + " op instances show no violation");
}

const ProofContext::Levels& ProofContext::levels() {
  if (levels_) return *levels_;
  levels_ = std::make_unique<Levels>();
  const Trace& t = trace();
  std::map<std::pair<Pipe, Pipe>, std::set<int64_t>> ids;
  for (const auto& op : t.ops) {
    if (!isEventOp(*op.op)) continue;
    auto pair = std::make_pair(op.op->event.src, op.op->event.dst);
    auto& set = ids[pair];
    if (!op.eventId || containsUnknown(op.eventId)) {
      levels_->opaquePairs.insert(pair);
    } else if (auto c = evalConst(op.eventId)) {
      set.insert(*c);
    } else {
      for (int64_t v = 0; v <= kMaxEventId; ++v) set.insert(v);
    }
  }
  for (const auto& [pair, vals] : ids)
    for (int64_t v : vals) levels_->keys.emplace_back(pair.first, pair.second, v);
  // One pass in issue order: the level of every key, and for each wait instance the condition
  // that it is the first wait of the path to find its event clear (later waits would only be
  // knock-on effects of the first stuck one).
  std::map<EventKey, ExprPtr> level;
  for (const auto& key : levels_->keys)
    if (!levels_->opaquePairs.count({std::get<0>(key), std::get<1>(key)})) level[key] = Expr::constant(0);
  ExprPtr noneStuckYet = Expr::constant(1);
  for (size_t i = 0; i < t.ops.size(); ++i) {
    const TraceOp& op = t.ops[i];
    if (!isEventOp(*op.op)) continue;
    bool isSet = op.op->kind == OpKind::SetFlag;
    // A wait finds its event clear (starves); a set finds it already set (overwrites).
    ExprPtr starves = Expr::constant(0), overwrites = Expr::constant(0);
    for (auto& [key, l] : level) {
      if (op.op->event.src != std::get<0>(key) || op.op->event.dst != std::get<1>(key)) continue;
      ExprPtr fires = exprAnd(op.guard, exprEq(op.eventId, Expr::constant(std::get<2>(key))));
      if (evalConst(fires) == std::optional<int64_t>(0)) continue;
      ExprPtr seen = levelWhen(l, fires);
      if (!isSet) starves = exprOr(starves, exprAnd(fires, exprEq(seen, Expr::constant(0))));
      else overwrites = exprOr(overwrites, exprAnd(fires, exprEq(seen, Expr::constant(1))));
      l = selectFold(fires, Expr::constant(isSet ? 1 : 0), l);
    }
    if (isSet) {
      levels_->overwrite[i] = exprAnd(noneStuckYet, overwrites);
    } else {
      levels_->firstStuck[i] = exprAnd(noneStuckYet, starves);
      noneStuckYet = exprAnd(noneStuckYet, exprNot(starves));
    }
  }
  levels_->atExit = level;
  levels_->reachesExit = noneStuckYet;
  return *levels_;
}

// The level `l` (a chain of select(fired, 1 or 0, earlier level)) as an op that runs under
// `fires` sees it, by the guards' shape: the latest update that certainly ran under `fires`
// decides it, updates that cannot have run with it (another arm of the same switch) are skipped,
// and updates that may have run are passed over while they all set the same value as the one
// that decides (the same set in each copy of a loop body). Otherwise the rest of the chain is
// kept, so the result equals `l` whenever `fires` holds. A set and its wait under one guard
// then fold to "never starves" with no solver work, which keeps the deadlock queries small.
ExprPtr ProofContext::levelWhen(ExprPtr l, const ExprPtr& fires) {
  ExprPtr undecided;                 // the first update passed over, if any
  std::optional<int64_t> theirValue;  // the value all passed-over updates set
  // At most kFoldWindow updates back (a run of sets that all pass over each other would make
  // it quadratic); stopping early keeps the rest of the chain, which is still exact.
  for (size_t steps = 0; l->kind == Expr::Kind::Select && l->args.size() == 3 && steps < kFoldWindow && !budgetSpent();
       ++steps) {
    const ExprPtr& ran = l->args[0];
    auto value = evalConst(l->args[1]);
    if (impliedByShape(ran, fires, exprTrue())) {
      if (!undecided || (value && value == theirValue)) return l->args[1];
      return undecided;
    }
    if (!exclusiveGuards(ran, fires)) {
      if (!value || (theirValue && theirValue != value)) break;
      theirValue = value;
      if (!undecided) undecided = l;
    }
    l = l->args[2];
  }
  if (undecided && theirValue && evalConst(l) == theirValue) return Expr::constant(*theirValue);
  return undecided ? undecided : l;
}

// "The level at the kernel's end is `value`", by the guards' shape: the latest update, if it
// sets another value, must not have run; updates whose guard implies one that did not run are
// skipped (the rest of a switch arm after the arm's last wait); the first update that sets
// `value`, or an unknown one, keeps the rest of the chain. Equal to `level == value`; a kernel
// whose every arm drains its events folds to 0.
ExprPtr ProofContext::levelAtEndIs(ExprPtr l, int64_t value) {
  ExprPtr noneRan = exprTrue();
  std::vector<ExprPtr> didNotRun;
  while (l->kind == Expr::Kind::Select && l->args.size() == 3) {
    const ExprPtr& ran = l->args[0];
    bool cannotHaveRun = false;
    // The nearest updates that did not run only: a switch arm's own later updates are near,
    // and comparing with all of them was quadratic in a long chain (2,500 guarded pairs: 11 s).
    size_t nearest = didNotRun.size() > kFoldWindow ? didNotRun.size() - kFoldWindow : 0;
    for (size_t g = nearest; g < didNotRun.size() && !cannotHaveRun; ++g) {
      if (budgetSpent()) return exprAnd(noneRan, exprEq(l, Expr::constant(value)));
      cannotHaveRun = impliedByShape(didNotRun[g], ran, exprTrue());
    }
    if (!cannotHaveRun) {
      auto v = evalConst(l->args[1]);
      if (!v || *v == value) break;
      didNotRun.push_back(ran);
      noneRan = exprAnd(noneRan, exprNot(ran));
    }
    l = l->args[2];
  }
  return exprAnd(noneRan, exprEq(l, Expr::constant(value)));
}

std::vector<EventKey> ProofContext::eventKeys() {
  std::vector<EventKey> out;
  for (const auto& k : levels().keys)
    if (!levels().opaquePairs.count({std::get<0>(k), std::get<1>(k)})) out.push_back(k);
  return out;
}

const std::vector<ExprPtr>& ProofContext::witnessEvaluations() {
  if (witnessEvaluations_) return *witnessEvaluations_;
  std::vector<ExprPtr>& e = witnessEvaluations_.emplace();
  for (const auto& op : trace().ops) {
    e.push_back(op.guard);
    e.push_back(op.eventId ? op.eventId : Expr::constant(-1));
    for (const auto& it : *op.iteration) e.push_back(it.second);
  }
  for (const auto& b : trace().branches) {  // after the ops: buildWitness reads them last
    e.push_back(b.reached);
    e.push_back(b.taken);
  }
  return e;
}

SatAnswer ProofContext::checkForWitness(const std::vector<ExprPtr>& asserts, const std::vector<ExprPtr>& evaluate) {
  SatAnswer plain = solver_.check(asserts, {}, Solver::Model::None);
  if (plain.kind != SatAnswer::Kind::Sat) return plain;
  return solver_.check(asserts, evaluate);
}

Witness ProofContext::buildWitness(const SatAnswer& a, size_t evalBase, std::optional<size_t> from, size_t upTo,
                                   std::optional<size_t> stuck, const std::function<RacingAccess(size_t)>& racingAccess) {
  Witness w;
  const Trace& t = trace();
  // The concrete path Z3 chose: guards, ids and loop values of every op instance.
  std::vector<size_t> base(t.ops.size());
  size_t at = evalBase;
  for (size_t i = 0; i < t.ops.size(); ++i) {
    base[i] = at;
    at += 2 + t.ops[i].iteration->size();
  }
  const size_t branchBase = at;
  size_t nextBranch = 0;
  auto runs = [&](size_t i) { return a.values[base[i]].value_or(0) != 0; };
  auto idOf = [&](size_t i) { return a.values[base[i] + 1]; };
  // Replay the events along the path: lanes, matches, and the events set at the stuck point.
  std::map<EventKey, int> lastSet;
  std::map<Pipe, std::string> lastOnPipe;
  for (size_t i = 0; i <= upTo && i < t.ops.size(); ++i) {
    // The ifs whose ops start here, in the direction the model took (when it reached them).
    for (; nextBranch < t.branches.size() && t.branches[nextBranch].firstOp <= i; ++nextBranch) {
      const TraceBranch& b = t.branches[nextBranch];
      size_t v = branchBase + 2 * nextBranch;
      if (i < from.value_or(0) || v + 1 >= a.values.size() || a.values[v].value_or(0) == 0) continue;
      bool then = a.values[v + 1].value_or(0) != 0;
      w.path.push_back({b.loc, std::string("took the ") + (then ? "then" : "else") + " of `if " + b.cond + "` at " +
                                   std::to_string(b.loc.line) + ":" + std::to_string(b.loc.col)});
    }
    if (!runs(i)) continue;
    const Op& op = *t.ops[i].op;
    if (i >= from.value_or(0) && (isWitnessOp(op) || i == from || i == upTo))
      w.path.push_back({op.loc, opText(op, idOf(i)) + iterationText(t.ops[i], a.values, base[i] + 2)});
    bool racing = racingAccess && from && (i == *from || i == upTo);
    if (!isEventOp(op) && op.kind != OpKind::PipeBarrier && !racing) continue;
    LaneEvent ev;
    ev.lane = pipeName(ops::issuePipe(op));
    ev.loc = op.loc;
    RacingAccess access = racing ? racingAccess(i) : RacingAccess{opText(op, idOf(i))};
    ev.label = access.text + iterationText(t.ops[i], a.values, base[i] + 2) + " (line " + std::to_string(op.loc.line) + ")";
    ev.racing = racing;
    ev.rangeBegin = access.rangeBegin;
    ev.rangeEnd = access.rangeEnd;
    if (isEventOp(op) && idOf(i)) {
      EventKey key{op.event.src, op.event.dst, *idOf(i)};
      if (op.kind == OpKind::SetFlag) {
        lastSet[key] = static_cast<int>(w.lanes.size());
      } else {
        auto it = lastSet.find(key);
        if (it != lastSet.end()) {
          ev.matchedWith = it->second;
          lastSet.erase(it);
        }
      }
    }
    ev.stuck = stuck && *stuck == i;
    lastOnPipe[ops::issuePipe(op)] = (ev.stuck ? "blocked at " : "last ran ") + ev.label;
    w.lanes.push_back(ev);
  }
  const size_t kKeep = 16;
  if (w.path.size() > kKeep) {
    w.omittedSteps = w.path.size() - kKeep;
    w.path.erase(w.path.begin(), w.path.begin() + static_cast<long>(w.omittedSteps));
  }
  if (stuck) {
    for (const auto& [pipe, what] : lastOnPipe) w.state.push_back(std::string(pipeName(pipe)) + ": " + what);
    std::string set;
    for (const auto& [key, idx] : lastSet) set += (set.empty() ? "" : ", ") + eventText(key);
    w.state.push_back("events set at this point: " + (set.empty() ? std::string("none") : set));
  }
  w.values = shownValues(a);
  // The loop iteration of the op the witness ends at (the stuck wait, the notify).
  if (upTo < t.ops.size())
    for (size_t k = 0; k < t.ops[upTo].iteration->size(); ++k)
      if (auto v = a.values[base[upTo] + 2 + k]) w.values.emplace_back((*t.ops[upTo].iteration)[k].first, *v);
  return w;
}

Verdict verdictOf(const SatAnswer& a) {
  if (a.kind == SatAnswer::Kind::Unsat) return Verdict::proved();
  if (a.kind == SatAnswer::Kind::Unknown) return Verdict::unknown(a.reason);
  return Verdict{Verdict::Kind::Violated, {}, {}};
}

std::vector<std::pair<std::string, int64_t>> ProofContext::shownValues(const SatAnswer& a) const {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [name, value] : a.symbols) {
    if (kernel_.paramIndex(name) >= 0 || name.find("block_") != std::string::npos) out.emplace_back(name, value);
    if (name.rfind("args[", 0) != 0 || !kernel_.cpp) continue;
    // A C++ wrapper's scalar, shown by the variable it is unpacked into.
    std::string shown = name;
    for (const auto& u : kernel_.cpp->unpacks)
      if (!u.tensor && u.index && argsSlot(*u.index) == name && !u.var.empty())
        shown = u.var + " (" + name + ")";
    out.emplace_back(shown, value);
  }
  return out;
}

// Asks whether `any` can hold; Proved when it cannot.
static Verdict anyOf(Solver& solver, const Trace& t, const ExprPtr& any) {
  if (evalConst(any) == std::optional<int64_t>(0)) return Verdict::proved();
  std::vector<ExprPtr> asserts = t.assumptions;
  asserts.push_back(any);
  return verdictOf(solver.check(asserts, {}, Solver::Model::None));  // verdictOf keeps no values
}

std::vector<std::pair<Pipe, Pipe>> ProofContext::opaqueEventPairs() {
  return {levels().opaquePairs.begin(), levels().opaquePairs.end()};
}

// Can one of the per-instance conditions of `pick(levels())` hold? One query for the kernel.
Verdict ProofContext::anyInstance(const std::map<size_t, ExprPtr>& (*pick)(const Levels&)) {
  if (!trace().complete && !trace().prefix) return unknownTrace();
  // The instances on pairs with uncomputed ids have no level (their conditions are 0): the
  // others can still be violated.
  ExprPtr any = Expr::constant(0);
  for (const auto& [i, c] : pick(levels())) any = exprOr(any, c);
  Verdict v = anyOf(solver_, trace(), any);
  if (v.kind == Verdict::Kind::Proved && !levels().opaquePairs.empty())
    return Verdict::unknown("some event ids cannot be computed");
  return overPrefix(v);
}

Verdict ProofContext::anyWaitCanStarve() {
  return anyInstance([](const Levels& l) -> const std::map<size_t, ExprPtr>& { return l.firstStuck; });
}

Verdict ProofContext::anySetCanOverwrite() {
  return anyInstance([](const Levels& l) -> const std::map<size_t, ExprPtr>& { return l.overwrite; });
}

Verdict ProofContext::anyEventLeaks() {
  if (!trace().complete) return unknownTrace();
  ExprPtr any = Expr::constant(0);
  for (const auto& [key, level] : levels().atExit) any = exprOr(any, levelAtEndIs(level, 1));
  return anyOf(solver_, trace(), exprAnd(levels().reachesExit, any));
}

Verdict ProofContext::waitCanStarve(const Op& wait) { return eventQuery(wait, levels().firstStuck, true); }

Verdict ProofContext::setCanOverwrite(const Op& set) { return eventQuery(set, levels().overwrite, false); }

Verdict ProofContext::eventQuery(const Op& op, const std::map<size_t, ExprPtr>& conditions, bool stuck) {
  const Trace& t = trace();
  if (!t.complete && !t.prefix) return unknownTrace();
  if (!isEventOp(op)) return Verdict::proved();
  if (solver_.refusesQueries()) return Verdict::unknown(solver_.budgetSpentReason());
  if (levels().opaquePairs.count({op.event.src, op.event.dst}))
    return Verdict::unknown("an event id on " + std::string(pipeName(op.event.src)) + " -> " +
                            pipeName(op.event.dst) + " depends on a value ptoverify cannot compute");
  std::vector<size_t> instances;
  std::vector<ExprPtr> conds;
  for (const auto& [i, c] : conditions) {
    if (t.ops[i].op != &op) continue;
    instances.push_back(i);
    conds.push_back(c);
  }
  size_t which = 0;
  SatAnswer a;
  Verdict v = askAny(conds, which, a);
  if (v.kind != Verdict::Kind::Violated) return overPrefix(v);
  size_t at = instances[which];
  v.witness = buildWitness(a, conds.size(), std::nullopt, at, stuck ? std::optional<size_t>(at) : std::nullopt);
  return v;
}

Verdict ProofContext::askAny(const std::vector<ExprPtr>& conds, size_t& which, SatAnswer& answer) {
  ExprPtr any = Expr::constant(0);
  for (const auto& c : conds) any = exprOr(any, c);
  if (evalConst(any) == std::optional<int64_t>(0)) return Verdict::proved();
  if (solver_.refusesQueries()) return Verdict::unknown(solver_.budgetSpentReason());
  std::vector<ExprPtr> asserts = trace().assumptions;
  asserts.push_back(any);
  std::vector<ExprPtr> eval = conds;
  const auto& w = witnessEvaluations();
  eval.insert(eval.end(), w.begin(), w.end());
  answer = checkForWitness(asserts, eval);
  Verdict v = verdictOf(answer);
  if (v.kind != Verdict::Kind::Violated) return v;
  which = 0;
  for (size_t j = 0; j < conds.size(); ++j)
    if (answer.values[j].value_or(0)) {
      which = j;
      break;
    }
  return v;
}

Verdict ProofContext::eventLeaksAtExit(const EventKey& key) {
  const Trace& t = trace();
  if (!t.complete) return unknownTrace();
  auto level = levels().atExit.find(key);
  if (level == levels().atExit.end()) return Verdict::proved();
  // A path that deadlocks never ends; sync-deadlock reports it.
  ExprPtr leaks = exprAnd(levels().reachesExit, levelAtEndIs(level->second, 1));
  if (evalConst(leaks) == std::optional<int64_t>(0)) return Verdict::proved();
  std::vector<ExprPtr> asserts = t.assumptions;
  asserts.push_back(leaks);
  SatAnswer a = checkForWitness(asserts, witnessEvaluations());
  Verdict v = verdictOf(a);
  if (v.kind != Verdict::Kind::Violated) return v;
  v.witness = buildWitness(a, 0, std::nullopt, t.ops.empty() ? 0 : t.ops.size() - 1, std::nullopt);
  return v;
}


// Each question is one disjunct; a correct kernel costs one query. Participants P of an arrival:
// its count (soft barriers), else every launched lane. The slot a lane takes is its participant
// index (the indexed helper) or the lane itself.
ProofContext::ArrivalVerdict ProofContext::barrierArrival(const std::vector<const Op*>& barrier) {
  const Trace& t = trace();
  if (!t.complete) return {unknownTrace(), ""};
  std::vector<const TraceOp*> arrivals = instancesOf(t, barrier);
  if (arrivals.empty()) return {Verdict::proved(), ""};
  for (const TraceOp* a : arrivals)
    if (a->participantIndex && onLane(a->participantIndex, kLaneA) == a->participantIndex)
      return {Verdict::unknown("the participant index of '" + a->op->name + "' does not depend on the lane id: which "
                               "lanes fill its slots is not checked"),
              ""};
  if (std::string why = uncomputedCount(arrivals); !why.empty()) return {Verdict::unknown(why), ""};
  // Without a count every launched lane takes part, and the same parameters give every lane the
  // same path: a barrier whose arrivals do not depend on the lane is reached equally by all.
  bool laneDependent = false;
  for (const TraceOp* a : arrivals)
    laneDependent |= a->participants || a->participantIndex || onLane(a->guard, kLaneA) != a->guard;
  if (!laneDependent) return {Verdict::proved(), ""};
  bool launchKnown = !kernel_.launches.empty() || solver_.options().paramRanges.count("block_num");
  auto participants = [](const TraceOp& op) { return op.participants ? op.participants : Expr::blockNum(); };
  ExprPtr countA = Expr::constant(0), countB = Expr::constant(0);
  for (const TraceOp* a : arrivals) {
    countA = Expr::binary(Expr::Kind::Add, countA, selectFold(onLane(a->guard, kLaneA), Expr::constant(1), Expr::constant(0)));
    countB = Expr::binary(Expr::Kind::Add, countB, selectFold(onLane(a->guard, kLaneB), Expr::constant(1), Expr::constant(0)));
  }
  // Two lane copies of one value differ only if it depends on the lane: equal shapes never do.
  auto differ = [&](const ExprPtr& x, const ExprPtr& y) {
    return shapeId(x) == shapeId(y) ? Expr::constant(0) : Expr::cmp("ne", x, y);
  };
  // The questions, per arrival instance: (problem, condition).
  std::vector<std::string> problems;
  std::vector<ExprPtr> conds;
  for (const TraceOp* a : arrivals) {
    ExprPtr arrivesA = onLane(a->guard, kLaneA), arrivesB = onLane(a->guard, kLaneB);
    ExprPtr pA = onLane(participants(*a), kLaneA), pB = onLane(participants(*a), kLaneB);
    ExprPtr slotA = a->participantIndex ? onLane(a->participantIndex, kLaneA) : Expr::loopVar(kLaneA);
    ExprPtr inRange = exprAnd(Expr::cmp("sge", slotA, Expr::constant(0)), Expr::cmp("slt", slotA, pA));
    // A lane the count does not include arrives. Whether such a lane exists is the launch's
    // business: without a linked launch (or a block_num range) this is not asked, and
    // ruleNotChecked says so.
    if (launchKnown) {
      problems.push_back("outside");
      conds.push_back(exprAnd(arrivesA, exprNot(inRange)));
    }
    problems.push_back("mismatch");  // lanes the count includes arrive a different number of times
    conds.push_back(exprAnd(exprAnd(arrivesA, Expr::cmp("slt", Expr::loopVar(kLaneB), pA)),
                            differ(countA, countB)));
    if (a->op->participants) {
      problems.push_back("count");  // two arriving lanes pass different counts
      conds.push_back(exprAnd(exprAnd(arrivesA, arrivesB), differ(pA, pB)));
    }
  }
  std::vector<ExprPtr> asserts = t.assumptions;
  ExprPtr any = Expr::constant(0);
  for (const auto& c : conds) any = exprOr(any, c);
  if (evalConst(any) == std::optional<int64_t>(0)) return {Verdict::proved(), ""};
  asserts.push_back(any);
  std::vector<ExprPtr> eval = conds;
  eval.push_back(countA);
  eval.push_back(countB);
  eval.push_back(onLane(participants(*arrivals.front()), kLaneA));
  eval.push_back(onLane(participants(*arrivals.front()), kLaneB));
  SatAnswer ans = solver_.check(asserts, eval);
  Verdict v = verdictOf(ans);
  if (v.kind != Verdict::Kind::Violated) return {v, ""};
  size_t which = 0;
  for (size_t j = 0; j < conds.size(); ++j)
    if (ans.values[j].value_or(0)) {
      which = j;
      break;
    }
  v.witness.values = shownValues(ans);
  int64_t counts[2] = {ans.values[conds.size()].value_or(0), ans.values[conds.size() + 1].value_or(0)};
  auto laneText = [&](const char* lane) {
    auto idx = ans.symbols.find(lane);
    return "block_idx = " + (idx == ans.symbols.end() ? std::string("?") : std::to_string(idx->second));
  };
  const Op& first = *barrier.front();
  std::string problem = problems[which];
  if (problem == "outside") {
    auto p = ans.values[conds.size() + 2];
    v.witness.state.push_back(laneText(kLaneA) + " arrives, but the barrier counts " +
                              (p ? std::to_string(*p) : std::string("?")) + " participant(s)");
    v.witness.lanes.push_back({laneText(kLaneA), first.name + " arrival", first.loc, -1, false});
  } else if (problem == "count") {
    const char* lanes[2] = {kLaneA, kLaneB};
    for (int l = 0; l < 2; ++l) {
      auto p = ans.values[conds.size() + 2 + static_cast<size_t>(l)];
      v.witness.state.push_back(laneText(lanes[l]) + " arrives with participants = " +
                                (p ? std::to_string(*p) : std::string("?")));
      v.witness.lanes.push_back({laneText(lanes[l]), first.name + " arrival", first.loc, -1, false});
    }
  } else {
    const char* lanes[2] = {kLaneA, kLaneB};
    for (int l = 0; l < 2; ++l) {
      v.witness.state.push_back(laneText(lanes[l]) + " arrives " + std::to_string(counts[l]) + " time(s)");
      for (int64_t c = 0; c < counts[l] && c < 8; ++c)
        v.witness.lanes.push_back({laneText(lanes[l]), first.name + " arrival " + std::to_string(c + 1), first.loc, -1, false});
      if (counts[l] < counts[1 - l])
        v.witness.lanes.push_back({laneText(lanes[l]), "never arrives again: the other lane waits forever", first.loc, -1, true});
    }
  }
  return {v, problem};
}

Verdict ProofContext::participantsExceedLanes(const std::vector<const Op*>& barrier) {
  const Trace& t = trace();
  if (!t.complete) return unknownTrace();
  std::vector<const TraceOp*> arrivals = instancesOf(t, barrier);
  if (std::string why = uncomputedCount(arrivals); !why.empty()) return Verdict::unknown(why);
  ExprPtr any = Expr::constant(0);
  for (const TraceOp* a : arrivals)
    if (a->participants)
      any = exprOr(any, exprAnd(onLane(a->guard, kLaneA),
                                Expr::cmp("sgt", onLane(a->participants, kLaneA), Expr::blockNum())));
  if (evalConst(any) == std::optional<int64_t>(0)) return Verdict::proved();
  std::vector<ExprPtr> asserts = t.assumptions;
  asserts.push_back(any);
  SatAnswer a = solver_.check(asserts, {});
  Verdict v = verdictOf(a);
  if (v.kind == Verdict::Kind::Violated) v.witness.values = shownValues(a);
  return v;
}

Verdict ProofContext::laneBeyondCountWorks(const Op& barrier, const ExprPtr& loopStart, const ExprPtr& loopBound,
                                           int64_t stride) {
  if (containsUnknown(barrier.participants) || containsUnknown(loopStart) || containsUnknown(loopBound))
    return Verdict::unknown("the participant count or the loop's bound is not computed");
  ExprPtr lane = Expr::loopVar(kLaneA);
  ExprPtr count = onLane(barrier.participants, kLaneA);
  std::vector<ExprPtr> asserts = trace().assumptions;
  asserts.push_back(Expr::cmp("sge", lane, Expr::constant(0)));
  asserts.push_back(Expr::cmp("slt", lane, Expr::constant(stride)));
  asserts.push_back(Expr::cmp("sge", lane, count));
  asserts.push_back(Expr::cmp("slt", onLane(loopStart, kLaneA), onLane(loopBound, kLaneA)));
  SatAnswer a = solver_.check(asserts, {});
  Verdict v = verdictOf(a);
  if (v.kind == Verdict::Kind::Violated) v.witness.values = shownValues(a);
  return v;
}

Verdict ProofContext::neverBothRun(const Op& a, const Op& b) {
  const Trace& t = trace();
  if (!t.complete) return unknownTrace();
  ExprPtr runsA = Expr::constant(0), runsB = Expr::constant(0);
  for (const TraceOp& x : t.ops) {
    if (x.op == &a) runsA = exprOr(runsA, x.guard);
    if (x.op == &b) runsB = exprOr(runsB, x.guard);
  }
  ExprPtr both = exprAnd(runsA, runsB);
  if (evalConst(both) == std::optional<int64_t>(0)) return Verdict::proved();
  std::vector<ExprPtr> asserts = t.assumptions;
  asserts.push_back(both);
  return verdictOf(solver_.check(asserts, {}));
}

Verdict ProofContext::pathAvoiding(const Op& from, const Op* to, const std::vector<std::function<bool(const Op&)>>& stages) {
  const Trace& t = trace();
  if (!t.complete) return unknownTrace();
  const size_t kMaxWork = 200000;
  size_t work = 0;
  const int64_t done = static_cast<int64_t>(stages.size());
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<ExprPtr> conds;
  for (size_t i = 0; i < t.ops.size(); ++i) {
    if (t.ops[i].op != &from) continue;
    ExprPtr stage = Expr::constant(0);
    for (size_t j = i + 1; j <= t.ops.size(); ++j) {
      bool end = j == t.ops.size();
      if (end ? to == nullptr : t.ops[j].op == to) {
        ExprPtr reached = end ? Expr::constant(1) : t.ops[j].guard;
        ExprPtr c = exprAnd(exprAnd(t.ops[i].guard, reached), Expr::cmp("slt", stage, Expr::constant(done)));
        if (evalConst(c) != std::optional<int64_t>(0)) {
          pairs.emplace_back(i, end ? t.ops.size() - 1 : j);
          conds.push_back(c);
        }
      }
      if (end) break;
      for (int64_t s = done - 1; s >= 0; --s)
        if (stages[static_cast<size_t>(s)](*t.ops[j].op))
          stage = selectFold(exprAnd(t.ops[j].guard, exprEq(stage, Expr::constant(s))), Expr::constant(s + 1), stage);
      if (++work > kMaxWork) return Verdict::unknown("the path query is too large (more than 200000 steps)");
    }
  }
  size_t which = 0;
  SatAnswer a;
  Verdict v = askAny(conds, which, a);
  if (v.kind != Verdict::Kind::Violated) return v;
  std::pair<size_t, size_t> chosen = pairs[which];
  v.witness = buildWitness(a, conds.size(), chosen.first, chosen.second, std::nullopt);
  return v;
}

}  // namespace ptov
