// sync-event-pairing: the local shape of intra-core set_flag / wait_flag: ids in range, no
// second set of a binary event before its wait (the first set's wait is lost), no user event
// outstanding across a library op that uses the same event. Whether every wait is satisfied and
// every event is drained at the end is proved by sync-deadlock and sync-exit-balance.
#include <optional>
#include <tuple>

#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

// An event flag is binary: a set on a set flag leaves it set, a wait clears it. The abstract
// state is which of the two values are possible on some path.
constexpr unsigned kZero = 1, kOne = 2;
constexpr int64_t kMaxEventId = 7;
// The earlier sets a finding names as notes: the latest few (by flow node), so the state
// stays small when a run of guarded sets piles them up (2,500 of them took 660 MB).
constexpr size_t kNotedSets = 4;

struct EventState {
  BitsState<EventKey> counts;          // missing key = {kZero}
  std::map<EventKey, std::set<int>> lastSets;  // set nodes that may be outstanding
  bool join(const EventState& o) {
    // A key missing on one side means count zero there.
    bool changed = false;
    for (const auto& [k, b] : o.counts.bits)
      if (!counts.bits.count(k)) {
        counts.bits[k] = kZero;
        changed = true;
      }
    for (auto& [k, b] : counts.bits)
      if (!o.counts.bits.count(k) && !(b & kZero)) {
        b |= kZero;
        changed = true;
      }
    changed |= counts.join(o.counts);
    for (const auto& [k, sets] : o.lastSets) {
      std::set<int>& mine = lastSets[k];
      std::set<int> before = mine;
      mine.insert(sets.begin(), sets.end());
      while (mine.size() > kNotedSets) mine.erase(mine.begin());
      changed |= mine != before;
    }
    return changed;
  }
  unsigned get(const EventKey& k) const {
    auto it = counts.bits.find(k);
    return it == counts.bits.end() ? kZero : it->second;
  }
};

class SyncEventPairing : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-event-pairing", "sync", Severity::Error,
                            "set_flag of an event that is already set, id out of range, or colliding with library events",
                            {"PTOAS #428", "PTOAS #533", "PTOAS #823", "PTOAS #1149", "PTOAS SyncMacroModel (TPUT/TGET EVENT_ID0/1)"},
        // What it does not check: its page's section of that name.
        {"Ids that depend on values ptoverify cannot compute make the query about that pipe pair `unknown`, never a "
         "pass.",
         "Loops with a symbolic trip count are checked on the iterations docs/solver.md keeps, not on every one."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::SetFlag, OpKind::WaitFlag});
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    checkIds(*k.body, ctx);
    const Flow& flow = ctx.proofs().flow();
    // One whole-kernel question first: when no set can overwrite on any path, the per-set
    // questions (each as big as the kernel) need not be asked.
    std::optional<bool> noneCanOverwrite;
    auto mayOverwrite = [&](const Op& op) {
      if (!noneCanOverwrite) noneCanOverwrite = ctx.proofs().anySetCanOverwrite().kind == Verdict::Kind::Proved;
      return *noneCanOverwrite ? Verdict::proved() : ctx.proofs().setCanOverwrite(op);
    };
    // Only a set the CFG cannot clear needs the trace (unrolling is most of a small kernel's work).
    auto complete = [&] { return ctx.proofs().trace().complete; };
    std::vector<const Op*> unprovable;  // sets the CFG cannot clear, when the trace is incomplete
    std::vector<std::pair<const Op*, Verdict>> undecided;  // sets of computed ids the trace could not decide
    auto transfer = [&](const FlowNode& n, EventState& s, bool report) {
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) {
        if (op.event.src == Pipe::Unknown || op.event.dst == Pipe::Unknown) return;
        // An id computed per iteration (a ping-pong flag): the CFG cannot tell which event it
        // is, so every set of such an id goes to the trace proof, and it may leave any id of its
        // pipes set; such a wait may clear none.
        if (!op.event.id) {
          if (op.kind != OpKind::SetFlag) return;
          if (report && !complete()) {
            unprovable.push_back(&op);
          } else if (report) {
            Verdict v = mayOverwrite(op);
            if (v.kind == Verdict::Kind::Unknown) undecided.push_back({&op, v});
            else
              ctx.reportVerdict(v, op.loc, overwriteText(eventOf(op)));
          }
          for (int id = 0; id <= kMaxEventId; ++id) s.counts.bits[EventKey{op.event.src, op.event.dst, id}] |= kOne;
          return;
        }
        EventKey key{op.event.src, op.event.dst, *op.event.id};
        unsigned c = s.get(key);
        if (op.kind == OpKind::SetFlag) {
          // The CFG says the event may already be set here; the trace proof decides on which
          // feasible path (if any), with the branch conditions and iteration values.
          if (report && (c & kOne) && !complete()) {
            unprovable.push_back(&op);  // one finding for all of them, below
          } else if (report && (c & kOne)) {
            Finding* f = ctx.reportVerdict(mayOverwrite(op), op.loc, overwriteText(eventOf(op)));
            if (f)
              for (int prev : s.lastSets[key]) f->notes.push_back({flow.nodes[prev].op->loc, "an earlier set"});
          }
          s.counts.bits[key] = kOne;
          s.lastSets[key] = {self};
        } else {
          s.counts.bits[key] = kZero;
          s.lastSets.erase(key);
        }
      }
    };
    solveThenReport(flow, EventState{}, transfer);
    if (!undecided.empty()) {  // one finding for all of them (a budget spent answers each the same)
      Finding* f = ctx.reportVerdict(undecided.front().second, undecided.front().first->loc,
                                     "no set_flag of '" + k.name + "' with a computed event id runs while its event is "
                                     "still set");
      if (f && undecided.size() > 1)
        f->notes.push_back({undecided[1].first->loc, std::to_string(undecided.size() - 1) +
                                                         " more set_flag op(s) with computed ids are not decided either"});
    }
    Verdict leftOver = unprovable.empty() ? Verdict::proved() : ctx.proofs().anySetCanOverwrite();
    if (leftOver.kind == Verdict::Kind::Violated) {
      // The prefix the trace holds shows the sets that overwrite in it; the rest stay unknown.
      std::vector<const Op*> undecidedSets;
      for (const Op* op : unprovable) {
        Verdict v = ctx.proofs().solver().refusesQueries() ? Verdict::unknown("") : ctx.proofs().setCanOverwrite(*op);
        if (v.kind == Verdict::Kind::Violated) ctx.reportVerdict(v, op->loc, overwriteText(eventOf(*op)));
        else undecidedSets.push_back(op);
      }
      unprovable = std::move(undecidedSets);
      leftOver = Verdict::unknown("the kernel could not be unrolled: " + ctx.proofs().trace().incompleteReason);
    }
    if (!unprovable.empty()) {
      // A trace that could not be unrolled answers every set the same way: say it once.
      Finding* f = ctx.reportVerdict(leftOver, unprovable.front()->loc,
                                     "no set_flag of '" + k.name + "' runs while its event is still set");
      if (f && unprovable.size() > 1)
        f->notes.push_back({unprovable[1]->loc, std::to_string(unprovable.size() - 1) +
                                                    " more set_flag op(s) that may find their event set are not checked either"});
    }
  }

 private:
  // A computed id as its expression when that reads as one (`%slot`, `(k % 2)`); a longer one
  // (a flag's flips counted over a loop) is left to the witness, which shows its value.
  static std::string eventOf(const Op& set) {
    if (set.event.id) return eventText({set.event.src, set.event.dst, *set.event.id});
    std::string id = set.event.idExpr ? toString(set.event.idExpr) : std::string("?");
    if (id.size() > 40) id = "an id computed per iteration";
    return "[" + std::string(pipeName(set.event.src)) + ", " + pipeName(set.event.dst) + ", " + id + "]";
  }

  static std::string overwriteText(const std::string& event) {
    return "set_flag " + event +
           " can run while the same event is still set (no wait in between): the flag is binary, so one of the two "
           "waits has nothing to consume";
  }

  static void checkIds(const Stmt& body, RuleContext& ctx) {
    forEachOp(body, [&](const Op& op) {
      if ((op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) && op.event.id &&
          (*op.event.id < 0 || *op.event.id > kMaxEventId))
        ctx.report(op.loc, "event id " + std::to_string(*op.event.id) + " of '" + op.name +
                               "' is outside EVENT_ID0..EVENT_ID7");
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncEventPairing() { return std::make_unique<SyncEventPairing>(); }

}  // namespace ptov
