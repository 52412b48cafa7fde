// sync-exit-balance: on every feasible path to the kernel's end, every (src, dst, id) event is
// left as it was at entry (clear), so a kernel cannot hand a set event to the next one.
#include "rules/rule.h"

namespace ptov {
namespace {

class SyncExitBalance : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-exit-balance", "sync", Severity::Error,
                            "event still set when the kernel ends on some feasible path (Z3 proof)",
                            {"seed 002 (set_flag / wait_flag semantics)", "PTOAS #428 (prime and drain)",
                             "PTOAS #1149", "AscendNPU-IR InjectSync backward-sync drain"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    bool anySet = false;
    forEachOp(*k.body, [&](const Op& op) { anySet |= op.kind == OpKind::SetFlag; });
    if (!anySet) return;
    if (!ctx.proofs().trace().complete) {
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
