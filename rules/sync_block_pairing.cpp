// sync-block-pairing: HIVM cross-core flags (sync_block_set / sync_block_wait). A flag is a
// counter per (core, flag id): a set increments the target core's counter, a wait blocks until
// it is non-zero and decrements it (CANN's CrossCoreSetFlag / CrossCoreWaitFlag
// documentation). Checked here:
//   - every wait has a set that can satisfy it: same [set pipe, wait pipe] and flag, from the
//     other core type for intra-block sync (cube <-> vector), the same type for inter-block and
//     inter-sub-block sync; in the same MIX function or its other half (f_mix_aic <-> f_mix_aiv);
//   - flag ids are in 0..15;
//   - no path sets one flag more than 15 times without a wait in between (the counter's cap);
//   - two sync_block barriers of one kernel do not share a flag (AscendNPU-IR MR !2814: two
//     ALL_SUB_VECTOR barriers on flag 14 let the sub-blocks' halves collapse into a deadlock).
#include <map>
#include <set>

#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

constexpr int64_t kMaxFlag = 15;
constexpr int64_t kCounterCap = 15;

bool sameCoreTypeMode(const Op& op) { return op.syncMode != SyncMode::IntraBlock; }

bool satisfies(const Op& set, const Op& wait) {
  if (set.kind != OpKind::CrossCoreSet || set.event.src != wait.event.src || set.event.dst != wait.event.dst)
    return false;
  if (set.event.id && wait.event.id && *set.event.id != *wait.event.id) return false;
  if (!set.event.id && !wait.event.id && toString(set.event.idExpr) != toString(wait.event.idExpr)) return false;
  bool sameType = set.coreType == wait.coreType;
  return sameCoreTypeMode(wait) ? sameType : !sameType;
}

std::string describe(const Op& op) {
  return "'" + op.name + "' [" + coreTypeName(op.coreType, op.dialect) + ", " + pipeName(op.event.src) + ", " + pipeName(op.event.dst) +
         "] flag " + (op.event.id ? std::to_string(*op.event.id) : toString(op.event.idExpr));
}

class SyncBlockPairing : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "sync-block-pairing",
        "sync",
        Severity::Error,
        "cross-core sync_block_wait without a matching set, flag out of range or over its counter "
        "cap, or two barriers on one flag",
        {"AscendNPU IR's Auto-Sync design (Block-Sync: sync_block_set / sync_block_wait)", upstream::kAutoSync,
         "AscendNPU-IR MR !2814 (c2cbac052): two sub-block barriers on flag 14 deadlock",
         "CANN CrossCoreSetFlag: a flag counter takes at most 15 sets"},
        // What it does not check: its page's section of that name.
        {"Pairing is by existence, not by count or order across the two halves: they run on different cores and the "
         "model has no shared schedule for them.",
         "The lock ops (`sync_block_lock/unlock`) are reported as not modelled."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hivmCrossCore;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::vector<const Op*> mine, sets;
    auto collect = [&](const Kernel& kernel, bool own) {
      forEachOp(*kernel.body, [&](const Op& op) {
        if (op.kind != OpKind::CrossCoreSet && op.kind != OpKind::CrossCoreWait) return;
        if (op.dialect != Dialect::Hivm) return;
        if (own) mine.push_back(&op);
        if (op.kind == OpKind::CrossCoreSet) sets.push_back(&op);
      });
    };
    collect(k, true);
    for (const Kernel* peer : k.mixPeers) collect(*peer, false);
    checkRanges(mine, ctx);
    checkWaits(k, mine, sets, ctx);
    Counts counts;
    countSets(*k.body, counts, ctx);
    flush(counts, ctx);
    checkSharedBarrierFlags(k, ctx);
  }

 private:
  static void checkRanges(const std::vector<const Op*>& ops, RuleContext& ctx) {
    for (const Op* op : ops)
      if (op->event.id && (*op->event.id < 0 || *op->event.id > kMaxFlag))
        ctx.report(op->loc, describe(*op) + ": cross-core flag ids are 0.." + std::to_string(kMaxFlag));
  }

  static void checkWaits(const Kernel& k, const std::vector<const Op*>& mine, const std::vector<const Op*>& sets,
                         RuleContext& ctx) {
    // A half of a MIX function whose other half is not in this input (no f_mix_aic/aiv peer,
    // and every intra-block op runs on one core type): its intra-block waits pair with code we
    // cannot see.
    std::set<CoreType> coreTypes;
    for (const Op* op : mine)
      if (!sameCoreTypeMode(*op)) coreTypes.insert(op->coreType);
    bool otherHalfMissing = k.mixPeers.empty() && coreTypes.size() == 1;
    bool noted = false;
    for (const Op* wait : mine) {
      if (wait->kind != OpKind::CrossCoreWait) continue;
      bool matched = false;
      for (const Op* set : sets) matched |= satisfies(*set, *wait);
      if (matched) continue;
      if (otherHalfMissing && !sameCoreTypeMode(*wait)) {
        if (!noted)
          ctx.report(Severity::Note, wait->loc,
                     "'" + k.name + "' is one half of a MIX kernel and the other half is not in this input: its "
                     "intra-block sync_block_waits are not paired");
        noted = true;
        continue;
      }
      std::string from = sameCoreTypeMode(*wait) ? "the same core type (" + std::string(syncModeName(wait->syncMode)) + ")"
                                                 : "the other core type";
      ctx.report(wait->loc, describe(*wait) + " has no sync_block_set from " + from +
                                " with the same pipes and flag in this kernel or its other MIX half: it waits forever");
    }
  }

  // Sets of one flag between two cross-core waits of this kernel, per path: more than the cap
  // and the counter overflows. Counted on the statement tree, so a loop of sets counts its trip
  // count (symbolic trip counts go to Z3, within the configured parameter ranges).
  using Counts = std::map<std::string, std::pair<ExprPtr, const Op*>>;  // flag -> (sets, last set)

  static bool hasCrossCoreWait(const Stmt& s) {
    bool found = false;
    forEachOp(s, [&](const Op& op) { found |= op.kind == OpKind::CrossCoreWait; });
    return found;
  }

  static ExprPtr add(const ExprPtr& a, const ExprPtr& b) { return a ? Expr::binary(Expr::Kind::Add, a, b) : b; }

  void countSets(const Stmt& s, Counts& counts, RuleContext& ctx) const {
    switch (s.kind) {
      case Stmt::Kind::OpStmt: {
        const Op& op = s.op;
        if (op.dialect != Dialect::Hivm) return;
        if (op.kind == OpKind::CrossCoreWait) return flush(counts, ctx);
        if (op.kind != OpKind::CrossCoreSet) return;
        std::string key = "flag " + (op.event.id ? std::to_string(*op.event.id) : toString(op.event.idExpr)) +
                          " of the " + coreTypeName(op.coreType, op.dialect) + " side's target";
        auto& e = counts[key];
        e.first = add(e.first, Expr::constant(1));
        e.second = &op;
        return;
      }
      case Stmt::Kind::If: {
        Counts thenCounts = counts, elseCounts = counts;
        countSets(*s.children[0], thenCounts, ctx);
        if (s.children.size() > 1) countSets(*s.children[1], elseCounts, ctx);
        counts = thenCounts;
        for (const auto& [k, e] : elseCounts) {
          auto& mine = counts[k];
          mine.first = mine.first ? Expr::binary(Expr::Kind::Max, mine.first, e.first) : e.first;
          if (!mine.second) mine.second = e.second;
        }
        return;
      }
      case Stmt::Kind::For: {
        if (hasCrossCoreWait(*s.children[0])) return countSets(*s.children[0], counts, ctx);
        Counts body;
        countSets(*s.children[0], body, ctx);
        ExprPtr trip = Expr::binary(Expr::Kind::Max, Expr::constant(0),
                                    Expr::binary(Expr::Kind::Div,
                                                 Expr::binary(Expr::Kind::Add, Expr::binary(Expr::Kind::Sub, s.ub, s.lb),
                                                              Expr::binary(Expr::Kind::Sub, s.step, Expr::constant(1))),
                                                 s.step));
        for (const auto& [k, e] : body) {
          auto& mine = counts[k];
          mine.first = add(mine.first, Expr::binary(Expr::Kind::Mul, trip, e.first));
          mine.second = e.second;
        }
        return;
      }
      default:
        for (const auto& c : s.children)
          if (c) countSets(*c, counts, ctx);
        return;
    }
  }

  static void flush(Counts& counts, RuleContext& ctx) {
    for (const auto& [key, entry] : counts) {
      ExprPtr over = Expr::cmp("sgt", entry.first, Expr::constant(kCounterCap));
      Verdict v = Verdict::proved();
      if (auto c = evalConst(over)) {
        if (*c) v.kind = Verdict::Kind::Violated;
      } else {
        SatAnswer a = ctx.proofs().solver().check({over});
        v = verdictOf(a);
        v.witness.values = ctx.proofs().shownValues(a);
      }
      ctx.reportVerdict(v, entry.second->loc,
                        "cross-core " + key + " can be set more than " + std::to_string(kCounterCap) +
                            " times with no wait in between: the flag counter overflows");
    }
    counts.clear();
  }

  static void checkSharedBarrierFlags(const Kernel& k, RuleContext& ctx) {
    std::map<int64_t, const Op*> first;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::SyncAll || op.dialect != Dialect::Hivm || !op.event.id) return;
      auto [it, fresh] = first.emplace(*op.event.id, &op);
      if (fresh) return;
      Finding& f = ctx.report(op.loc, "sync_block '" + std::string(syncModeName(op.syncMode)) + "' uses cross-core flag " +
                                          std::to_string(*op.event.id) + ", like the barrier before it: a fast " +
                                          "sub-block's arrival at this barrier satisfies a slow one still waiting at "
                                          "the first, and the halves deadlock (give each barrier its own flag)");
      f.notes.push_back({it->second->loc, "the other barrier on flag " + std::to_string(*op.event.id)});
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncBlockPairing() { return std::make_unique<SyncBlockPairing>(); }

}  // namespace ptov
