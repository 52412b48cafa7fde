// cache-policy-wrapper: a kernel_entry wrapper reads get_l2_cache_offset(args) once, at entry,
// and passes it as the kernel's L2-cache-offset parameter when the kernel has one.
#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

bool isCacheOffsetParam(const std::string& name) { return name.find("l2_cache_offset") != std::string::npos; }

class CachePolicyWrapper : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"cache-policy-wrapper",
                            "cache",
                            Severity::Error,
                            "the wrapper does not pass get_l2_cache_offset(args), read once at entry, to the "
                            "kernel's cache-offset parameter",
                            {"PyPTO's GM cache access policy (the wrapper reads the L2 offset once and passes it on)",
                             upstream::kCachePolicy, "PTOAS #1537 (an offset nobody fills: silent wrong data)",
                             "simpler #2323 (get_l2_cache_offset(args) accessor)"},
        // What it does not check: its page's section of that name.
        {"A forwarded kernel without an L2-cache-offset parameter (none whose name contains `l2_cache_offset`) is "
         "only checked for reading the offset once, at the top level."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return k.cpp != nullptr && k.cpp->wrapper;
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->wrapper) return;
    const auto& reads = k.cpp->cacheOffsetReads;
    for (size_t i = 1; i < reads.size(); ++i) {
      Finding& f = ctx.report(reads[i].loc, "get_l2_cache_offset(args) is read again: read it once at entry and pass "
                                            "the value on");
      f.notes.push_back({reads[0].loc, "the first read"});
    }
    for (const auto& r : reads)
      if (!r.atEntry)
        ctx.report(r.loc, "get_l2_cache_offset(args) is read inside a loop, a branch or a helper: read it once at the "
                          "wrapper's entry");
    for (const auto& call : k.cpp->forwarded) {
      for (size_t i = 0; i < call.args.size(); ++i) {
        bool wanted = (i < call.paramNames.size() && isCacheOffsetParam(call.paramNames[i])) ||
                      (k.irPeer && k.irPeer->name == call.callee && i < k.irPeer->params.size() &&
                       isCacheOffsetParam(k.irPeer->params[i].name));
        if (!wanted || call.args[i].source == "l2_cache_offset") continue;
        std::string param = i < call.paramNames.size() ? call.paramNames[i] : std::to_string(i + 1);
        ctx.report(call.loc, "'" + call.callee + "' takes the L2 cache offset as parameter '" + param + "', but the "
                             "wrapper passes '" + call.args[i].text + "' instead of get_l2_cache_offset(args): "
                             "bypassing loads read at the wrong address");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeCachePolicyWrapper() { return std::make_unique<CachePolicyWrapper>(); }

}  // namespace ptov
