// cache-policy-param: the synthetic i64 parameter %__pypto_l2_cache_offset exists exactly once
// iff some load uses it (a2a3), and never on a5 (PyPTO's GM cache access policy: the offset
// parameter is appended once per kernel).
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

constexpr const char* kOffsetParam = "%__pypto_l2_cache_offset";

class CachePolicyParam : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"cache-policy-param",
                            "cache",
                            Severity::Error,
                            "L2 cache-offset parameter missing, duplicated, unused or present on a5",
                            {"PyPTO's GM cache access policy (codegen emission properties)", upstream::kCachePolicy,
                             "pypto test_cache_policy_codegen.py"},
        // What it does not check: its page's section of that name.
        {"Which loads carry the offset and how they carry it is `cache-bypass-offset`'s.",
         "Whether the wrapper passes the runtime's offset into the parameter is `cache-policy-wrapper`'s."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.cachePolicy;
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    std::vector<int> offsetParams;
    for (size_t i = 0; i < k.params.size(); ++i)
      if (k.params[i].name.rfind(kOffsetParam, 0) == 0) offsetParams.push_back(static_cast<int>(i));
    const Op* firstUse = nullptr;
    forEachOp(*k.body, [&](const Op& op) {
      if (op.kind == OpKind::Load && !op.offsetValue.empty() && !firstUse) firstUse = &op;
    });
    if (k.arch == "a5") {
      for (int p : offsetParams)
        ctx.report(k.loc, "kernel '" + k.name + "' has parameter " + k.params[p].name +
                              " on a5, which has no L2 cache-offset alias");
      return;
    }
    if (offsetParams.size() > 1) {
      Finding& f = ctx.report(k.loc, "kernel '" + k.name + "' has " + std::to_string(offsetParams.size()) +
                                         " L2 cache-offset parameters; the wrapper passes exactly one");
      for (int p : offsetParams) f.notes.push_back({k.loc, "parameter " + k.params[p].name});
    }
    if (!offsetParams.empty() && !firstUse)
      ctx.report(Severity::Warning, k.loc,
                 "kernel '" + k.name + "' declares " + k.params[offsetParams[0]].name +
                     " but no load uses it: codegen emits it only for kernels with an l2_bypass load");
    if (offsetParams.empty() && firstUse) {
      Finding& f = ctx.report(k.loc, "kernel '" + k.name + "' uses an L2 cache offset but has no i64 parameter " +
                                         kOffsetParam);
      f.notes.push_back({firstUse->loc, "the load that uses an offset"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeCachePolicyParam() { return std::make_unique<CachePolicyParam>(); }

}  // namespace ptov
