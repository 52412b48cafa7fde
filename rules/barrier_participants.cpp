// barrier-participants: the soft barrier's participant count never exceeds the lanes the linked
// launch starts (Z3, for every parameter value), a constant count equals every phase's grid
// stride, and every grid stride equals the launched lanes; a hard barrier (which waits for every
// core of its type) needs the whole machine launched; and the barrier's core type matches the
// kernel's topology (AIV-only vs mixed AIC + AIV). Which lanes arrive is barrier-arrival's.
#include <algorithm>
#include <optional>

#include "rules/cpp_queries.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class BarrierParticipants : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "barrier-participants",
        "barrier",
        Severity::Error,
        "barrier participants, grid stride and launched cores disagree, or the barrier's core "
        "type does not match the kernel",
        {"the DeepSeek-V4 MoE fusion write-up 不变量 1, §4.2, §4.3, 常见错误 1 and 2", upstream::kMoeFusion,
         "pypto #1935 (hard syncall deadlock at partial occupancy)",
         "pypto-lib cce-extern-kernel.md (SyncAll() is AIV-only, mixed kernels need SyncAll<false>)"},
        // What it does not check: its page's section of that name.
        {"Without a linked launch only the stride check runs: that the launch has as many lanes as each barrier waits "
         "for is not checked.",
         "Linked launches that do not give one constant `block_num` leave the lane count unchecked."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return k.cpp != nullptr && t.has(OpKind::SyncAll);
  }

  std::vector<RuleOption> options() const override {
    return {integerOption("aiv-cores", {{"", 48}},
                          "AIV cores a hard AIV barrier waits for (A2/A3: 24 AI cores x 2 vector cores)")};
  }

  // It compares counts and strides with one launched lane count.
  std::string notChecked(const Kernel& k) const override {
    if (std::string why = launchNotLinked(k); !why.empty())
      return why + ": that the launch has as many lanes as each barrier waits for, no more and no fewer, is not "
                   "checked";
    if (k.cpp && k.kind != KernelKind::Orchestration && !k.launchedLanes())
      return "the linked launches do not give one constant block_num";
    return "";
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp) return;
    int64_t aivCores = ctx.option("aiv-cores");
    std::optional<int64_t> lanes = k.launchedLanes();
    for (const auto& group : barrierCounters(k)) {
      const Op& b = *group.front();
      if (b.syncMode == SyncMode::Soft) checkSoft(k, group, lanes, ctx);
      else checkHard(k, b, aivCores, ctx);
    }
    // Every lane steps through its phase by the number of lanes launched: a different stride
    // skips logical blocks (stride > lanes) or runs them twice (stride < lanes).
    if (!lanes) return checkStridesAgree(k, ctx);
    Finding* f = nullptr;
    for (const auto& loop : k.cpp->gridLoops) {
      auto stride = evalConst(loop.stride);
      if (!stride || *stride == *lanes) continue;
      if (f) {
        f->notes.push_back({loop.loc, "another grid-stride loop with the same stride"});
        continue;
      }
      f = &ctx.report(loop.loc, "this grid-stride loop steps by " + std::to_string(*stride) +
                                    " lanes but the kernel is launched on " + std::to_string(*lanes) + ": " +
                                    (*stride > *lanes ? "some logical blocks are never run"
                                                      : "some logical blocks are run by two lanes"));
      f->notes.push_back({k.launches.front()->loc, "the launch"});
    }
  }

 private:
  static void checkSoft(const Kernel& k, const std::vector<const Op*>& group, std::optional<int64_t> lanes,
                        RuleContext& ctx) {
    const Op& b = *group.front();
    checkLanesBeyondCount(k, group, ctx);
    if (auto p = evalConst(b.participants))
      for (const auto& loop : k.cpp->gridLoops) {
        auto stride = evalConst(loop.stride);
        if (stride && *stride != *p) {
          Finding& f = ctx.report(loop.loc, "this grid-stride loop steps by " + std::to_string(*stride) +
                                                " lanes but the barrier waits for " + std::to_string(*p) +
                                                " participants: the phase's lanes and the barrier's must be the same set");
          f.notes.push_back({b.loc, "the barrier"});
        }
      }
    if (!lanes) return;  // no launch linked: audit says "not checked"
    Verdict v = ctx.proofs().participantsExceedLanes(group);
    Finding* f = ctx.reportVerdict(v, b.loc,
                                   "barrier '" + b.name + "' can wait for more participants than the " +
                                       std::to_string(*lanes) + " lanes launched: the missing lanes never arrive "
                                       "(a hang); the count must be the largest phase's work clamped to the lanes, "
                                       "not a sum");
    if (f) f->notes.push_back({k.launches.front()->loc, "the launch"});
  }

  // Lanes at or above a barrier's count pass it without waiting, so phase work they do next to
  // it (in the loops just before or after it) is not ordered by it: a lane cap one short of the
  // grid stride leaves the last lane's blocks racing the others'. Lanes are those the kernel is
  // written for: below its grid stride.
  static void checkLanesBeyondCount(const Kernel& k, const std::vector<const Op*>& group, RuleContext& ctx) {
    const std::vector<const Op*> order = barriersOf(k);  // in the order the loops count them
    for (const Op* b : group) {
      // A constant count is compared with every stride below; a computed one is asked here.
      if (!b->participants || evalConst(b->participants)) continue;
      int index = static_cast<int>(std::find(order.begin(), order.end(), b) - order.begin());
      for (const auto& loop : k.cpp->gridLoops) {
        auto stride = evalConst(loop.stride);
        bool nextToIt = loop.barriersBefore == index || loop.barriersBefore == index + 1;
        if (!stride || *stride <= 0 || !nextToIt) continue;
        Verdict v = ctx.proofs().laneBeyondCountWorks(*b, loop.start, loop.bound, *stride);
        if (v.kind == Verdict::Kind::Proved) continue;
        Finding* f = ctx.reportVerdict(v, loop.loc,
                                       "a lane at or above the participant count of barrier '" + b->name +
                                           "' does phase work in this grid-stride loop next to it: the barrier does "
                                           "not wait for that lane, so its blocks race the other lanes' across it");
        if (f) f->notes.push_back({siteOf(*b), "the barrier"});
        return;  // one finding per barrier group
      }
    }
  }

  // Without a launch (and without a constant count, which each stride is compared with): the
  // phases' grid strides agree with each other, as they all stand for the lanes launched.
  static void checkStridesAgree(const Kernel& k, RuleContext& ctx) {
    for (const Op* b : barriersOf(k))
      if (b->syncMode == SyncMode::Soft && evalConst(b->participants)) return;
    const GridStrideLoop* first = nullptr;
    for (const auto& loop : k.cpp->gridLoops) {
      auto stride = evalConst(loop.stride);
      if (!stride) continue;
      if (!first) {
        first = &loop;
        continue;
      }
      auto firstStride = evalConst(first->stride);
      if (*stride == *firstStride) continue;
      Finding& f = ctx.report(loop.loc, "this grid-stride loop steps by " + std::to_string(*stride) +
                                            " lanes, an earlier phase's by " + std::to_string(*firstStride) +
                                            ": both stand for the lanes launched, so one phase skips logical blocks "
                                            "or runs some twice");
      f.notes.push_back({first->loc, "the earlier grid-stride loop"});
      return;
    }
  }

  static void checkHard(const Kernel& k, const Op& b, int64_t aivCores, RuleContext& ctx) {
    if (b.coreType == CoreType::Vector && k.cpp->mixed)
      ctx.report(b.loc, "'" + b.name + "' in its default form synchronises the AIV cores only; this kernel also runs "
                        "cube code, whose cores are never released: use the mixed form SyncAll<false>()");
    if (b.coreType == CoreType::Mix && !k.cpp->mixed)
      ctx.report(b.loc, "SyncAll<false>() waits for the cube cores too, but this kernel is AIV-only: derive the "
                        "barrier from the kernel's core topology (SyncAll<>() or a soft barrier)");
    for (const LaunchFacts* l : k.launches)
      if (l->blockNum && *l->blockNum < aivCores) {
        Finding& f = ctx.report(b.loc, "hard barrier '" + b.name + "' waits for all " + std::to_string(aivCores) +
                                           " AIV cores, but the kernel is launched on " + std::to_string(*l->blockNum) +
                                           ": it hangs (use an indexed soft barrier over the launched lanes)");
        f.notes.push_back({l->loc, "the launch"});
      }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierParticipants() { return std::make_unique<BarrierParticipants>(); }

}  // namespace ptov
