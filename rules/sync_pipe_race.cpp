// sync-pipe-race: two accesses on different pipes of one core that touch the same memory (a
// UB tile by name or constant address range, a GM box of the same tensor view), at least one
// writing, with no set_flag -> wait_flag chain or barrier between them on the paths where both
// run: the pipes run concurrently, so the read may see the old or the new data.
#include "analysis/pipe_races.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class SyncPipeRace : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "sync-pipe-race",
        "sync",
        Severity::Error,
        "ops on different pipes touch overlapping memory with no set/wait or barrier between them",
        {"AscendNPU IR's Auto-Sync design (auto-sync: RAW / WAR / WAW between pipes)", upstream::kAutoSync,
         "pypto #2722 / PTOAS #1532", "simpler #831", "AscendNPU-IR GraphSolver happens-before model"},
        // What it does not check: its page's section of that name.
        {"A kernel with no intra-core sync op at all is not checked: it is input to the compiler's auto-sync.",
         "Same-pipe hazards (a vector op after a vector op needs `pipe_barrier(PIPE_V)` on A2/A3) are not reported.",
         "Tiles with different names and no constant address are assumed disjoint, and different kernel arguments are "
         "assumed not to alias.",
         "Two library phases of `tput`/`tget` on one staging tile are not compared, and collectives are not accesses."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::SetFlag, OpKind::WaitFlag, OpKind::PipeBarrier});
  }
  bool affectedBy(ModelGap::Kind kind) const override {
    return gapHidesAccesses(kind) || kind == ModelGap::Kind::UnknownOp;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    // A kernel with no intra-core sync at all is input to the compiler's auto-sync
    // (ptoas --enable-insert-sync, HIVM InjectSync / GSS): its races are the compiler's to fix.
    // A lone pipe_barrier(PIPE_ALL) does not count: the HIVM passes put one at every entry's
    // end and the sync_block lowering adds them before any intra-core sync exists.
    bool synced = false;
    forEachOp(*k.body, [&](const Op& op) {
      synced |= op.kind == OpKind::SetFlag || op.kind == OpKind::WaitFlag ||
                (op.kind == OpKind::PipeBarrier && op.barrierPipe != Pipe::ALL);
    });
    if (!synced) return;
    PipeRaces all = findPipeRaces(ctx.proofs());
    if (!all.notChecked.empty())
      ctx.reportVerdict(Verdict::unknown(all.notChecked), k.loc,
                        "no two accesses of '" + k.name + "' on different pipes race");
    for (const PipeRace& r : all.races) {
      auto role = [](bool writes) { return writes ? "writes" : "reads"; };
      std::string what = r.secondRef->space == MemSpace::GM ? "GM " + r.secondRef->value : "tile " + r.secondRef->value;
      Finding* f = ctx.reportVerdict(
          r.verdict, r.second->loc,
          "'" + r.second->name + "' on " + pipeName(accessPipe(*r.second, *r.secondRef)) + " " + role(r.secondWrites) +
              " " + what + " while '" + r.first->name + "' on " + pipeName(accessPipe(*r.first, *r.firstRef)) + " " +
              role(r.firstWrites) + " " +
              r.firstRef->value + " with no set_flag/wait_flag chain or barrier ordering them");
      if (f) f->notes.push_back({r.first->loc, "the other access"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncPipeRace() { return std::make_unique<SyncPipeRace>(); }

}  // namespace ptov
