// barrier-arrival: every participant reaches every all-core barrier (pto.syncall, soft or
// hard) the same number of times, for every launch (block_num) and every value of the
// scalar parameters in their configured ranges. A lane that skips one arrival (an early exit,
// a lane-dependent if, a grid-stride loop with a lane-dependent trip count) hangs the others.
#include <set>

#include "rules/rule.h"

namespace ptov {
namespace {

class BarrierArrival : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"barrier-arrival", "barrier", Severity::Error,
                            "lanes reach an all-core barrier a different number of times (Z3 proof)",
                            {"seed 004 (idle lanes returning early still owe their barrier arrivals)",
                             "triton-ascend #1738 (sync_block_all never releases)"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::set<const Op*> seen;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::SyncAll || !seen.insert(&op).second) return;
      Verdict v = ctx.proofs().barrierArrivalDiffers(op);
      ctx.reportVerdict(v, op.loc,
                        "'" + op.name + "' is reached a different number of times by different lanes: the lanes "
                            "that arrive more often wait for an arrival that never comes");
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierArrival() { return std::make_unique<BarrierArrival>(); }

}  // namespace ptov
