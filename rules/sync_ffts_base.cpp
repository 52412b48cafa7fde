// sync-ffts-base: on the memory-based architectures (910B, A2/A3) cross-core sync goes through
// FFTS, whose base address the kernel must set first: `hivm.hir.set_ffts_base_addr` (or an
// `ffts_base_addr =` operand on the sync_block_set / sync_block), `pto.set_ffts` in .pto.
// RegBase (A5 / Ascend950) needs none.
#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class SyncFftsBase : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "sync-ffts-base",
        "sync",
        Severity::Error,
        "cross-core sync on a memory-based arch without the FFTS base address",
        {"AscendNPU IR's Auto-Sync design (sync_block_set: ffts_base_addr is needed on Ascend910B)",
         upstream::kAutoSync, "AscendNPU-IR InjectBlockSync / CrossCoreGSS insert set_ffts_base_addr on mem-based arch",
         "PTOAS: A3 requires pto.set_ffts in the function that uses pto.sync.set/wait"},
        // What it does not check: its page's section of that name.
        {"RegBase (A5, Ascend950) kernels are not checked: they need no FFTS base.",
         "A C++ `kernel_entry(args)` wrapper and a kernel that declares an AscendC MIX task type are not reported: "
         "their launcher sets the base."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::CrossCoreSet, OpKind::CrossCoreWait}) || t.hivmCrossCore;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    // The FFTS base argument is where the pipeline takes the base from; a kernel with one
    // gets its set_ffts_base_addr from InjectBlockSync / CrossCoreGSS.
    if (k.arch == "a5" || k.fftsArg) return;
    // A kernel_entry(args) wrapper is launched by the PTO2 runtime, which sets the FFTS base
    // before the kernel starts (pypto-lib's extern kernels rely on it: the hardware-tested
    // DeepSeek-V4 4ab10f40 kernel's AscendC::SyncAll and qwen3's FFTS flags never set it).
    if (k.cpp && k.cpp->wrapper) return;
    // So is a kernel of the AscendC operator framework that declares a MIX task type: the
    // framework launches cube and vector halves together with the base set (pto-isa's flash
    // attention demo, fa_custom, exchanges FFTS flags and never sets it).
    if (k.cpp && k.cpp->taskType.rfind("KERNEL_TYPE_MIX", 0) == 0) return;
    // One pass: whether the kernel sets the base, the first cross-core op without it, and
    // whether every set / barrier (the ops that can carry it) brings it as an operand.
    bool setsBase = false, anySetCarries = false, anySetLacks = false;
    const Op* firstUnbased = nullptr;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind == OpKind::SetFfts) setsBase = true;
      bool barrier = op.kind == OpKind::SyncAll && op.dialect == Dialect::Hivm;  // sync_block
      bool canCarry = op.kind == OpKind::CrossCoreSet || barrier;
      if (canCarry) (op.fftsBase ? anySetCarries : anySetLacks) = true;
      if ((canCarry || op.kind == OpKind::CrossCoreWait) && !op.fftsBase && !firstUnbased) firstUnbased = &op;
    });
    if (setsBase || !firstUnbased || (anySetCarries && !anySetLacks)) return;
    Finding& f = ctx.report(firstUnbased->loc,
                            "'" + firstUnbased->name + "' is cross-core sync on " + k.arch +
                                " (memory-based FFTS), but '" + k.name +
                                "' never sets the FFTS base address (set_ffts_base_addr / pto.set_ffts) and has no "
                                "ffts_base_address argument to set it from: the flag goes to an undefined address");
    f.notes.push_back({k.loc, "kernel '" + k.name + "' (arch " + k.arch + ")"});
  }
};

}  // namespace

std::unique_ptr<Rule> makeSyncFftsBase() { return std::make_unique<SyncFftsBase>(); }

}  // namespace ptov
