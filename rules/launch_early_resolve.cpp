// launch-early-resolve: a kernel that busy-waits at an all-core barrier, and every task it
// depends on, are submitted with set_allow_early_resolve(true). The synchronously started cohort
// can only be gathered early when its producers allow it, and its successors can only prepare
// while it runs when it allows it; without it the barrier kernel's scheduler gaps come back.
// A performance contract (it never makes a read early), hence a warning.
#include "analyzer/model/cpp_facts.h"
#include "rules/cpp_queries.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class LaunchEarlyResolve : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "launch-early-resolve",
        "launch",
        Severity::Warning,
        "a barrier kernel or one of its producers is submitted without allow_early_resolve",
        {"the DeepSeek-V4 MoE fusion write-up §2.5 (sync_start and allow_early_resolve are two things)",
         upstream::kMoeFusion, "pypto-lib 90ff1556 audit_fused_pre_norm_codegen (producer / fused early-resolve)"},
        // What it does not check: its page's section of that name.
        {"Without a linked launch nothing is checked (`ptoverify audit` says \"not checked: no launch linked\").",
         "It is a performance contract: whether a task reads early is not asked."}};
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
      if (!l->allowEarlyResolve.value_or(false)) {
        Finding& f = ctx.report(l->allowEarlyResolve ? l->allowEarlyResolveLoc : l->loc,
                                "'" + k.name + "' waits at barrier '" + barriers.front()->name + "' but its task is " +
                                    "submitted without set_allow_early_resolve(true): its successors cannot prepare "
                                    "while its lanes run");
        f.notes.push_back({barriers.front()->loc, "the barrier"});
      }
      for (const LaunchDep& d : l->deps) {
        if (d.producer < 0 || d.producerEarlyResolve.value_or(false)) continue;
        Finding& f = ctx.report(d.producerEarlyResolveLoc,
                                "task '" + d.producerKernel + "', a producer of barrier kernel '" + k.name +
                                    "', is submitted without set_allow_early_resolve(true): the barrier kernel's "
                                    "cohort cannot be gathered before the producer's completion is resolved");
        f.notes.push_back({l->loc, "the barrier kernel's launch"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeLaunchEarlyResolve() { return std::make_unique<LaunchEarlyResolve>(); }

}  // namespace ptov
