// barrier-workspace: a soft barrier's GM workspace is big enough for its counters, each counter
// sits on its own 64-byte line, and every launch passes a fresh, zero-initialised InOut workspace
// that no other launch shares.
#include <algorithm>
#include <map>

#include "rules/cpp_queries.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

constexpr int64_t kCounterWords = 16;       // pto::SYNCALL_SOFT_WORKSPACE_INT32: one 64-byte line
constexpr int64_t kIndexedSlotWords = 8;    // the older indexed helper: 8 words per participant

class BarrierWorkspace : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "barrier-workspace",
        "barrier",
        Severity::Error,
        "soft-barrier workspace too small, misaligned, not zeroed, not InOut, or shared "
        "between launches",
        {"the DeepSeek-V4 MoE fusion write-up 不变量 5, §4.5, §5.1, 常见错误 7 and 8", upstream::kMoeFusion,
         "PTOAS #1064 / pypto #2273 (soft SYNCALL workspace: 16 int32 on its own 64-byte line)"},
        // What it does not check: its page's section of that name.
        {"Without a linked launch only the kernel's side (the counter layout) is checked, not how the launch creates "
         "and passes the workspace.",
         "Two barriers that no single execution runs together are not compared."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return k.cpp != nullptr && t.softSync;
  }
  std::string notChecked(const Kernel& k) const override { return launchNotLinked(k); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    // Words the kernel needs in each workspace argument, and the barriers that use it. Each
    // barrier occupies a region of its workspace: a 16-word counter (the atomic form) or
    // participants x 8 words of slots (the indexed helper), at its word offset.
    struct Region {
      int64_t start = 0, words = 0;
      bool indexed = false;
      const Op* op = nullptr;
    };
    std::map<std::string, int64_t> needed;
    std::map<std::string, const Op*> firstUse;
    std::map<std::string, std::vector<Region>> regions;
    for (const Op* b : barriersOf(k)) {
      if (!isSoftBarrier(*b) || b->writes.empty()) continue;
      const MemRef& ws = b->writes.front();
      if (!firstUse.count(ws.value)) firstUse[ws.value] = b;
      auto off = evalConst(b->workspaceOffset);
      if (!off) continue;
      Region r{*off, kCounterWords, b->participantIndex != nullptr, b};
      if (r.indexed) {
        auto p = evalConst(b->participants);
        if (!p) continue;
        r.words = *p * kIndexedSlotWords;
      } else if ((*off * 4) % 64 != 0) {
        ctx.report(siteOf(*b), "the barrier's counter starts at word " + std::to_string(*off) + " (byte " +
                               std::to_string(*off * 4) + "), not on a 64-byte cache line: the counter's DCCI "
                               "maintenance would share a line with other data");
      }
      for (const Region& o : regions[ws.value]) {
        if (o.op == b || o.start + o.words <= r.start || r.start + r.words <= o.start) continue;
        // The indexed helper's slots count generations: sequential barriers may share them.
        if (o.start == r.start && o.indexed && r.indexed) continue;
        // Barriers that never both run (the arms of a stop-phase switch) share nothing.
        if (ctx.proofs().neverBothRun(*o.op, *b).kind == Verdict::Kind::Proved) continue;
        Finding* f = nullptr;
        if (o.start == r.start && !o.indexed && !r.indexed)
          // The second finds the first one's arrivals already counted and releases early (a
          // fixed-threshold counter is a no-op on reuse).
          f = &ctx.report(siteOf(*b), "this barrier counts on the same counter (word " + std::to_string(*off) +
                                          ") as an earlier barrier: its generation is released by the earlier "
                                          "barrier's arrivals; give each barrier its own 64-byte counter");
        else
          f = &ctx.report(siteOf(*b), "this barrier's " + std::string(r.indexed ? "slots" : "counter") + " (words " +
                                          std::to_string(r.start) + ".." + std::to_string(r.start + r.words - 1) +
                                          ") overlap the " + (o.indexed ? "slots" : "counter") +
                                          " of another barrier (words " + std::to_string(o.start) + ".." +
                                          std::to_string(o.start + o.words - 1) + ")");
        f->notes.push_back({siteOf(*o.op), "the other barrier"});
        if (b->callSite.line > 0) f->notes.push_back({b->loc, "the barrier call inside the inlined helper"});
        break;
      }
      regions[ws.value].push_back(r);
      needed[ws.value] = std::max(needed[ws.value], r.start + r.words);
    }
    for (const auto& [wsValue, words] : needed) checkLaunches(k, wsValue, words, *firstUse[wsValue], ctx);
  }

 private:
  static void checkLaunches(const Kernel& k, const std::string& wsValue, int64_t words, const Op& barrier,
                            RuleContext& ctx) {
    auto index = argsIndexOf(wsValue);
    if (!index) return;
    std::map<std::string, const LaunchFacts*> owner;  // workspace tensor (function#created) -> first launch
    for (const LaunchFacts* l : k.launches) {
      const LaunchArg* arg = launchArgAt(*l, *index);
      if (!arg) continue;
      auto note = [&](Finding& f) { f.notes.push_back({barrier.loc, "the barrier that uses " + wsValue}); };
      if (arg->method != "add_inout") {
        Finding& f = ctx.report(arg->loc, "the barrier workspace '" + arg->name + "' is passed with " + arg->method +
                                              ": it must be add_inout (an input hides the kernel's writes, an output "
                                              "hides the previous generation's reads)");
        note(f);
      }
      if (arg->created < 0) {
        Finding& f = ctx.report(arg->loc, "the barrier workspace '" + arg->name + "' is not created in '" + l->function +
                                              "': each launch needs its own fresh, zero-initialised workspace");
        note(f);
      } else {
        const CreatedTensor& w = l->created[static_cast<size_t>(arg->created)];
        if (w.words && *w.words < words) {
          Finding& f = ctx.report(w.loc, "the barrier workspace '" + w.name + "' has " + std::to_string(*w.words) +
                                             " words; the kernel's barriers use " + std::to_string(words));
          note(f);
        }
        if (!w.initValue || *w.initValue != 0) {
          Finding& f = ctx.report(w.loc, "the barrier workspace '" + w.name + "' is not zero-initialised: its counters "
                                         "start at a stale generation and release lanes early");
          note(f);
        }
        if (w.startOffset && *w.startOffset != 0) {
          Finding& f = ctx.report(w.startOffsetLoc, "the barrier workspace '" + w.name + "' is used at start_offset " +
                                                        std::to_string(*w.startOffset) + ": the kernel's counters are "
                                                        "not where the workspace was sized and zeroed");
          note(f);
        }
        if (w.manualDep) {
          Finding& f = ctx.report(w.loc, "the barrier workspace '" + w.name + "' is created with manual_dep: the "
                                         "runtime no longer orders the grids that use it");
          note(f);
        }
        if (std::count(l->loopShared.begin(), l->loopShared.end(), arg->created)) {
          Finding& f = ctx.report(arg->loc, "the barrier workspace '" + w.name + "' is created outside the loop that "
                                            "launches this task: every iteration's grid counts into the same counters");
          note(f);
        }
      }
      if (arg->method == "add_no_dep") continue;  // reported above as not add_inout
      std::string identity = arg->created >= 0 ? l->function + "#" + std::to_string(arg->created) : arg->name;
      auto [it, fresh] = owner.emplace(identity, l);
      if (!fresh) {
        Finding& f = ctx.report(arg->loc, "the barrier workspace '" + arg->name + "' is shared with another launch: "
                                          "the two grids count into the same counters and release each other early");
        f.notes.push_back({it->second->loc, "the other launch"});
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierWorkspace() { return std::make_unique<BarrierWorkspace>(); }

}  // namespace ptov
