// barrier-sync-start: a kernel whose lanes busy-wait at an all-core barrier must be launched
// with require_sync_start, so that every participant is resident before any of them spins.
#include "rules/cpp_queries.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class BarrierSyncStart : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "barrier-sync-start",
        "barrier",
        Severity::Error,
        "a kernel with a busy-waiting barrier is launched without require_sync_start",
        {"the DeepSeek-V4 MoE fusion write-up 不变量 4, §2.5, §4.4 and 常见错误 4", upstream::kMoeFusion,
         "pto-isa #197 (soft SYNCALL spins when "
         "blocks arrive in waves)",
         "pypto #1935 (hard syncall without sync_start deadlocks)"},
        // What it does not check: its page's section of that name.
        {"Without a linked launch nothing is checked (`ptoverify audit` says \"not checked: no launch linked\").",
         "Whether the launch has as many lanes as the barrier waits for is `barrier-participants`'s."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return k.cpp != nullptr && t.has(OpKind::SyncAll);
  }
  std::string notChecked(const Kernel& k) const override { return launchNotLinked(k); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::vector<const Op*> barriers = barriersOf(k);
    if (barriers.empty()) return;
    for (const LaunchFacts* l : k.launches) {
      if (l->requireSyncStart.value_or(false)) continue;
      std::string how = l->requireSyncStart ? "with require_sync_start(false)" : "without set_require_sync_start(true)";
      Finding& f = ctx.report(l->loc, "'" + k.name + "' busy-waits at '" + barriers.front()->name + "' but is launched " +
                                          how + ": the lanes that start first occupy cores waiting for lanes that "
                                                "cannot be scheduled");
      f.notes.push_back({barriers.front()->loc, "the barrier"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierSyncStart() { return std::make_unique<BarrierSyncStart>(); }

}  // namespace ptov
