// sync-reserved-event: ids that the IR must leave to someone else. Intra-core: EVENT_ID7 on the
// eleven pipe pairs AscendNPU-IR reserves for its template library (GSS allocates ids 0..6 on
// them). Cross-core: flags 14 and 15 belong to the block-all handshake over PIPE_S (GSS
// allocates 0..13), and a sync_block barrier in the kernel owns the flags its lowering uses.
#include <set>

#include "rules/rule.h"

namespace ptov {
namespace {

constexpr int64_t kLibraryEvent = 7;

bool libraryPair(Pipe src, Pipe dst) {
  using P = Pipe;
  static const std::set<std::pair<P, P>> reserved = {
      {P::S, P::V},     {P::S, P::MTE2}, {P::S, P::MTE3}, {P::V, P::S},     {P::V, P::MTE2}, {P::V, P::MTE3},
      {P::M, P::FIX},   {P::MTE2, P::S}, {P::MTE2, P::V}, {P::MTE3, P::S}, {P::FIX, P::M}};
  return reserved.count({src, dst}) > 0;
}

// The flags a sync_block of `mode` decomposes into (AscendNPU IR's HIVMDecomposeOp.cpp
// defaults).
std::set<int64_t> barrierFlags(const Op& syncBlock) {
  if (syncBlock.syncMode == SyncMode::All) return {10, 11, 12, 13};
  if (syncBlock.event.id) return {*syncBlock.event.id};
  return {};
}

std::vector<int64_t> idsOf(const Op& op) {
  if (op.event.id) return {*op.event.id};
  return possibleConstants(op.event.idExpr);
}

class SyncReservedEvent : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"sync-reserved-event", "sync", Severity::Error,
                            "compiler-assigned event or flag id collides with an id library code or sync_block uses",
                            {"AscendNPU-IR Utility.h reserved pairs (EVENT_ID7 for the template library)",
                             "AscendNPU-IR a5ebfcf23 (library id moved to EVENT_ID7)",
                             "AscendNPU-IR bee824b22 (block-all handshake on flags 14/15)",
                             "HIVMDecomposeOp default flags 10-15"},
        // What it does not check: its page's section of that name.
        {"Only the reserved ids are checked: whether an id's sets and waits pair up is `sync-event-pairing`'s and "
         "`sync-block-pairing`'s."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hivmCrossCore || t.hasAny({OpKind::SetFlag, OpKind::WaitFlag});
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    // Flags owned by sync_block barriers of this kernel and its mix halves.
    std::map<int64_t, const Op*> owned;
    auto collectBarriers = [&](const Kernel& kernel) {
      forEachOp(*kernel.body, [&](const Op& op) {
        if (op.kind == OpKind::SyncAll && op.dialect == Dialect::Hivm)  // sync_block
          for (int64_t f : barrierFlags(op)) owned.emplace(f, &op);
      });
    };
    collectBarriers(k);
    for (const Kernel* peer : k.mixPeers) collectBarriers(*peer);

    forEachOp(*k.body, [&](const Op& op) {
      if (op.dialect != Dialect::Hivm) return;
      if (op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag) {
        for (int64_t id : idsOf(op))
          if (id == kLibraryEvent && libraryPair(op.event.src, op.event.dst))
            ctx.report(op.loc, "EVENT_ID7 on [" + std::string(pipeName(op.event.src)) + ", " + pipeName(op.event.dst) +
                                   "] is reserved for the template library (mmadL1 and other macros use it "
                                   "internally); the compiler allocates EVENT_ID0..6 on this pair");
      } else if (op.kind == OpKind::CrossCoreSet || op.kind == OpKind::CrossCoreWait) {
        for (int64_t flag : idsOf(op)) {
          auto barrier = owned.find(flag);
          if (barrier != owned.end()) {
            Finding& f = ctx.report(op.loc, "cross-core flag " + std::to_string(flag) + " of '" + op.name +
                                                "' is also used by the lowering of a '" + syncModeName(barrier->second->syncMode) +
                                                "' sync_block barrier: a set of one is consumed by the other's wait");
            f.notes.push_back({barrier->second->loc, "the sync_block that owns flag " + std::to_string(flag)});
          } else if ((flag == 14 || flag == 15) && !(op.event.src == Pipe::S && op.event.dst == Pipe::S)) {
            ctx.report(op.loc, "cross-core flag " + std::to_string(flag) +
                                   " is reserved for the block-all handshake over [PIPE_S, PIPE_S] (the compiler "
                                   "allocates flags 0..13); a data sync on it can be consumed by that handshake");
          }
        }
      }
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncReservedEvent() { return std::make_unique<SyncReservedEvent>(); }

}  // namespace ptov
