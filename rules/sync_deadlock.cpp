// sync-deadlock: a wait_flag blocks its pipe until a matching set_flag has run. Proved over
// every feasible path of the unrolled kernel: on no path does a wait run while its
// (src, dst, id) event is not set by a set issued before it (docs/solver.md, "Event levels").
#include <set>

#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class SyncDeadlock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "sync-deadlock",
        "sync",
        Severity::Error,
        "wait_flag that can block its pipe forever on some feasible path (Z3 proof)",
        {"AscendNPU IR's Auto-Sync design (set_flag / wait_flag semantics)", upstream::kAutoSync, "PTOAS #428",
         "PTOAS #533", "PTOAS #1149", "AscendNPU-IR c94452068 (re-arming set only on the last iteration)"},
        // What it does not check: its page's section of that name.
        {"A wait is matched against the sets issued before it; a set issued after the wait on another pipe that could "
         "release it is reported, not credited.",
         "Cross-core flags (`pto.sync.set/wait`, HIVM `sync_block_*`) are not part of this proof.",
         "An undecided query (timeout, budget, an event id ptoverify cannot compute) is `unknown`, never a pass."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::SetFlag, OpKind::WaitFlag});
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::set<const Op*> seen;
    bool anyWait = false;
    forEachOp(*k.body, [&](const Op& op) { anyWait |= op.kind == OpKind::WaitFlag; });
    if (!anyWait) return;
    const Trace& t = ctx.proofs().trace();
    if (!t.complete) {
      // A prefix still shows the waits that starve in it; the rest stays unknown.
      if (t.prefix && ctx.proofs().anyWaitCanStarve().kind == Verdict::Kind::Violated)
        forEachOp(*k.body, [&](const Op& op) {
          if (op.kind != OpKind::WaitFlag || !seen.insert(&op).second || ctx.proofs().solver().refusesQueries()) return;
          if (Verdict v = ctx.proofs().waitCanStarve(op); v.kind == Verdict::Kind::Violated) reportStarving(op, v, ctx);
        });
      ctx.reportVerdict(Verdict::unknown(t.incompleteReason), k.loc,
                        "every wait_flag of '" + k.name + "' has a matching set_flag");
      return;
    }
    Verdict any = ctx.proofs().anyWaitCanStarve();
    if (any.kind == Verdict::Kind::Proved) return;
    std::vector<const Op*> notAsked;  // once the kernel's budget is spent: one finding for them
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::WaitFlag || !seen.insert(&op).second) return;
      if (ctx.proofs().solver().refusesQueries()) {
        notAsked.push_back(&op);
        return;
      }
      reportStarving(op, ctx.proofs().waitCanStarve(op), ctx);
    });
    if (!notAsked.empty()) {
      Finding* f = ctx.reportVerdict(Verdict::unknown(ctx.proofs().solver().budgetSpentReason()), notAsked.front()->loc,
                                     "no wait_flag of '" + k.name + "' from here on can block its pipe forever");
      if (f && notAsked.size() > 1)
        f->notes.push_back({notAsked[1]->loc, std::to_string(notAsked.size() - 1) + " more wait_flag op(s) not checked either"});
    }
  }

 private:
  static void reportStarving(const Op& wait, const Verdict& v, RuleContext& ctx) {
    std::string event = "[" + std::string(pipeName(wait.event.src)) + ", " + pipeName(wait.event.dst) + "]";
    ctx.reportVerdict(v, wait.loc,
                      "'" + wait.name + "' " + event + " can block " + pipeName(wait.event.dst) +
                          " forever: on the path below no matching set_flag is outstanding when it runs");
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncDeadlock() { return std::make_unique<SyncDeadlock>(); }

}  // namespace ptov
