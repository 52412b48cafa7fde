// sync-pipe-race: ops on different pipes touch overlapping memory with no set/wait or barrier between them
#include "rules/rule.h"

namespace ptov {
namespace {

class SyncPipeRace : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-pipe-race", "sync", Severity::Error, "ops on different pipes touch overlapping memory with no set/wait or barrier between them", {"TODO: seed section / upstream issue"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    forEachOp(*k.body, [&](const Op& op) {
      (void)op;
      (void)ctx;  // TODO: ask the model, then ctx.report(op.loc, "...")
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncPipeRace() { return std::make_unique<SyncPipeRace>(); }

}  // namespace ptov
