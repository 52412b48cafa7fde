// sync-exit-balance: on every feasible path to the kernel's end, every (src, dst, id) event is
// left as it was at entry (clear), so a kernel cannot hand a set event to the next one.
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class SyncExitBalance : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "sync-exit-balance",
        "sync",
        Severity::Error,
        "event still set when the kernel ends on some feasible path (Z3 proof)",
        {"AscendNPU IR's Auto-Sync design (set_flag / wait_flag semantics)", upstream::kAutoSync,
         "PTOAS #428 (prime and drain)", "PTOAS #1149", "AscendNPU-IR InjectSync backward-sync drain"},
        // What it does not check: its page's section of that name.
        {"A kernel that cannot be unrolled (more than 20,000 op instances) is `unknown`, except for a `set_flag` "
         "outside every loop with no `wait_flag` of its event anywhere after it.",
         "Ids that depend on values ptoverify cannot compute make that pipe pair `unknown`."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::SetFlag, OpKind::WaitFlag});
  }

  // Without the trace: a set_flag outside every loop that no later wait_flag can consume leaves
  // its event set whenever it runs (a later iteration cannot wait for it: it is in no loop).
  static void collectSetsOutsideLoops(const Stmt& s, std::vector<const Op*>& out) {
    if (s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While) return;
    if (s.kind == Stmt::Kind::OpStmt) {
      if (s.op.kind == OpKind::SetFlag && s.op.event.id) out.push_back(&s.op);
      return;
    }
    for (const auto& c : s.children)
      if (c) collectSetsOutsideLoops(*c, out);
  }

  static void reportNeverWaited(const Kernel& k, RuleContext& ctx) {
    std::vector<const Op*> sets;
    collectSetsOutsideLoops(*k.body, sets);
    OpNumbering num(*k.body);
    for (const Op* set : sets) {
      bool waited = false;
      for (size_t i = num.index(set) + 1; i < num.ops().size() && !waited; ++i) {
        const Op& w = *num.ops()[i];
        waited = w.kind == OpKind::WaitFlag && w.event.src == set->event.src && w.event.dst == set->event.dst &&
                 (!w.event.id || *w.event.id == *set->event.id);
      }
      if (!waited)
        ctx.report(set->loc, "set_flag " + std::string(pipeName(set->event.src)) + " -> " + pipeName(set->event.dst) +
                                 " EVENT_ID" + std::to_string(*set->event.id) + " is in no loop and no wait_flag after "
                                 "it can consume it: whenever it runs, '" + k.name +
                                 "' ends with the event set and the next kernel on this core inherits it");
    }
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    bool anySet = false;
    forEachOp(*k.body, [&](const Op& op) { anySet |= op.kind == OpKind::SetFlag; });
    if (!anySet) return;
    if (!ctx.proofs().trace().complete) {
      reportNeverWaited(k, ctx);
      ctx.reportVerdict(Verdict::unknown(ctx.proofs().trace().incompleteReason), k.loc,
                        "every event of '" + k.name + "' is clear when it ends");
      return;
    }
    for (const auto& [src, dst] : ctx.proofs().opaqueEventPairs())
      ctx.reportVerdict(Verdict::unknown("an event id on this pipe pair depends on a value ptoverify cannot compute"),
                        k.loc, "every " + std::string(pipeName(src)) + " -> " + pipeName(dst) + " event of '" + k.name +
                                   "' is clear when it ends");
    if (ctx.proofs().anyEventLeaks().kind == Verdict::Kind::Proved) return;
    for (const EventKey& key : ctx.proofs().eventKeys()) {
      Verdict v = ctx.proofs().eventLeaksAtExit(key);
      SourceLoc at = k.loc;
      // Point at the last set of this event on the witness path.
      for (const auto& step : v.witness.path)
        if (step.what.find("set_flag") != std::string::npos && step.what.find(eventText(key)) != std::string::npos)
          at = step.loc;
      ctx.reportVerdict(v, at,
                        "set_flag " + eventText(key) + " can still be set when '" + k.name +
                            "' ends: the next kernel on this core inherits the event");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncExitBalance() { return std::make_unique<SyncExitBalance>(); }

}  // namespace ptov
