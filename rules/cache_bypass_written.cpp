// cache-bypass-written: BYPASS asserts nobody writes the bytes while the kernel runs; a bypass
// load of a tensor this kernel itself writes mixes cached writes with uncached reads (PyPTO's GM cache access policy).
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class CacheBypassWritten : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "cache-bypass-written",
        "cache",
        Severity::Error,
        "l2_bypass load of a tensor the same kernel writes",
        {"PyPTO's GM cache access policy (contract: no writer during the kernel; OutlineIncoreScopes rejection)",
         upstream::kCachePolicy},
        // What it does not check: its page's section of that name.
        {"Writes to a peer's copy of the tensor are not counted.",
         "Writes by other kernels or the host while this one runs are not seen: only the kernel's own writes are."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.cachePolicy;
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::vector<const Op*> writers;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.writesGm()) writers.push_back(&op);
    });
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::Load || op.cachePolicy != CachePolicy::L2Bypass) return;
      for (const auto& r : op.reads) {
        if (r.space != MemSpace::GM || r.param < 0) continue;
        for (const Op* w : writers)
          for (const auto& m : w->writes)
            if (m.space == MemSpace::GM && m.param == r.param && !m.peer) {
              Finding& f = ctx.report(op.loc, "l2_bypass load of " + k.params[r.param].name +
                                                  ", which this kernel also writes: cached writes and uncached "
                                                  "reads of the same bytes can disagree");
              f.notes.push_back({w->loc, "written here"});
              return;
            }
      }
    });
  }
};

}  // namespace

std::unique_ptr<Rule> makeCacheBypassWritten() { return std::make_unique<CacheBypassWritten>(); }

}  // namespace ptov
