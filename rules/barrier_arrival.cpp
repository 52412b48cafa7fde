// barrier-arrival: every participant reaches every all-core barrier (pto.syncall, soft or
// hard) the same number of times, for every launch (block_num) and every value of the
// scalar parameters in their configured ranges. A lane that skips one arrival (an early exit,
// a lane-dependent if, a grid-stride loop with a lane-dependent trip count) hangs the others.
#include <map>

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
    // Ops arrive at the same barrier when they have the same mode, core type and workspace:
    // a lane may arrive through either arm of an if.
    std::map<std::string, std::vector<const Op*>> barriers;
    std::vector<std::string> order;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::SyncAll) return;
      std::string key = op.syncMode + "|" + op.coreType + "|" + (op.uses.empty() ? "" : op.uses.front());
      if (barriers[key].empty()) order.push_back(key);
      barriers[key].push_back(&op);
    });
    for (const auto& key : order) {
      const Op& first = *barriers[key].front();
      std::string what = "'" + first.name + "' (" + first.syncMode + ", " + first.coreType +
                         (first.uses.empty() ? "" : ", workspace " + first.uses.front()) + ")";
      Verdict v = ctx.proofs().barrierArrivalDiffers(barriers[key]);
      Finding* f = ctx.reportVerdict(v, first.loc,
                                     "lanes arrive at barrier " + what +
                                         " a different number of times: the lanes that arrive more often wait for "
                                         "an arrival that never comes");
      if (f)
        for (size_t i = 1; i < barriers[key].size(); ++i)
          f->notes.push_back({barriers[key][i]->loc, "another arrival at the same barrier"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierArrival() { return std::make_unique<BarrierArrival>(); }

}  // namespace ptov
