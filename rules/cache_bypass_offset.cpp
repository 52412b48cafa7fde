// cache-bypass-offset: on a2a3 an l2_bypass tload must carry `offset = %__pypto_l2_cache_offset`
// (without it PTOAS emits an ordinary cached load); on a5 it must never carry one (PyPTO's GM cache access policy).
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class CacheBypassOffset : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"cache-bypass-offset",
                            "cache",
                            Severity::Error,
                            "l2_bypass tload offset operand wrong for the arch",
                            {"PyPTO's GM cache access policy (GM cache policy: codegen and arch differences)",
                             upstream::kCachePolicy, "PTOAS #1356", "PTOAS #1537", "pypto PR #2843"},
        // What it does not check: its page's section of that name.
        {"Whether the bypass is right for the data (nobody writes it while the kernel runs) is "
         "`cache-bypass-written`'s.",
         "Whether the synthetic parameter exists once is `cache-policy-param`'s."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.cachePolicy;
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind != OpKind::Load) return;
      bool bypass = op.cachePolicy == CachePolicy::L2Bypass;
      bool hasOffset = !op.offsetValue.empty();
      if (bypass && k.arch == "a2a3" && !hasOffset) {
        ctx.report(op.loc, "l2_bypass tload has no 'offset = %__pypto_l2_cache_offset' operand: on a2a3 it "
                           "compiles to an ordinary cached load and the bypass silently does nothing");
      } else if (bypass && k.arch == "a2a3" && !isCacheOffsetParam(k, op.offsetParam)) {
        Finding& f = ctx.report(op.loc, "l2_bypass tload offset '" + op.offsetValue +
                                            "' is not the kernel's i64 L2 cache-offset parameter");
        f.notes.push_back({k.loc, "the offset must be read once in the wrapper (get_l2_cache_offset) and passed "
                                  "as the synthetic i64 parameter %__pypto_l2_cache_offset"});
      } else if (bypass && k.arch == "a5" && hasOffset) {
        ctx.report(op.loc, "l2_bypass tload carries an offset on a5, which has no uncached GM alias: the "
                           "address is moved by '" + op.offsetValue + "'");
      } else if (!bypass && hasOffset) {
        ctx.report(Severity::Warning, op.loc,
                   "tload has an 'offset =' operand but no l2_bypass cache_policy: PTOAS ignores the offset");
      }
    });
  }

 private:
  static bool isCacheOffsetParam(const Kernel& k, int idx) {
    if (idx < 0 || idx >= static_cast<int>(k.params.size())) return false;
    return k.params[idx].elemType == "i64" || k.params[idx].elemType == "index";
  }
};

}  // namespace

std::unique_ptr<Rule> makeCacheBypassOffset() { return std::make_unique<CacheBypassOffset>(); }

}  // namespace ptov
