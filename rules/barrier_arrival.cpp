// barrier-arrival: the lanes that reach an all-core barrier (pto.syncall, soft or hard) are
// exactly the lanes it waits for, and each reaches it the same number of times, for every launch
// (block_num) and every value of the scalar parameters in their configured ranges.
//   - A barrier with a participant count P (SYNCALL<Soft, ...>(ws, P), the indexed helper) waits
//     for the dense prefix lane < P: a lane outside it must not arrive, every lane inside it must
//     arrive as often as the others, and all arriving lanes must pass the same P.
//   - A barrier without a count (hard SyncAll, pto.syncall) waits for every launched lane.
// A lane that skips one arrival (an early exit, a lane-dependent if, a grid-stride loop with a
// lane-dependent trip count) hangs the others; an extra arrival releases them early.
#include <map>

#include "rules/cpp_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class BarrierArrival : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"barrier-arrival",
                            "barrier",
                            Severity::Error,
                            "the lanes reaching an all-core barrier are not exactly its participants, or they reach "
                            "it a different number of times (Z3 proof)",
                            {"the DeepSeek-V4 MoE fusion write-up 不变量 1 and 2, 常见错误 1 and 5 (idle lanes still "
                             "owe their barrier arrivals)",
                             upstream::kMoeFusion, "triton-ascend #1738 (sync_block_all never releases)"},
        // What it does not check: its page's section of that name.
        {"Values ptoverify cannot compute (data loaded from GM) are assumed the same on every lane.",
         "Without a linked launch (and no `block_num` range), whether a lane outside the count arrives is not asked: "
         "`barrier-participants` owns the launch's lane count.",
         "Two lanes whose symbolic trip counts differ but are both large can look equal: loops keep iterations 0, 1 "
         "and the last two or three.",
         "Cross-core block sync (cube/vector `sync_block`) is not checked here."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.has(OpKind::SyncAll);
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    for (const auto& group : barrierCounters(k)) {
      const Op& first = *group.front();
      std::string counter = counterText(first);
      std::string what = "'" + first.name + "' (" + syncModeName(first.syncMode) + ", " + coreTypeName(first.coreType, first.dialect) +
                         (counter.empty() ? "" : ", " + counter) + ")";
      auto [v, problem] = ctx.proofs().barrierArrival(group);
      std::string msg;
      if (problem == "outside")
        msg = "a lane outside the participants of barrier " + what +
              " arrives at it: the barrier counts lane < P only, so the extra arrival releases it before every "
              "participant is there (or lands in the next generation)";
      else if (problem == "count")
        msg = "lanes arriving at barrier " + what +
              " pass different participant counts: every participant must wait for the same P";
      else
        msg = "lanes arrive at barrier " + what +
              " a different number of times (or a lane the barrier waits for never arrives): the lanes that arrive "
              "more often wait for an arrival that never comes";
      Finding* f = ctx.reportVerdict(v, first.loc, msg);
      if (f)
        for (size_t i = 1; i < group.size(); ++i)
          if (group[i]->loc.line != first.loc.line || group[i]->loc.file != first.loc.file)
            f->notes.push_back({group[i]->loc, "another arrival at the same barrier"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierArrival() { return std::make_unique<BarrierArrival>(); }

}  // namespace ptov
