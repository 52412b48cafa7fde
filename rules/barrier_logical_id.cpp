// barrier-logical-id: a runtime-launched kernel (kernel_entry(args)) or a kernel with an all-core
// barrier takes its lane id from get_block_idx(args) / get_sub_block_id(args), the runtime's
// dense logical id, never from the bare get_block_idx() / get_subblockid() physical core id.
#include "rules/cpp_queries.h"
#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

class BarrierLogicalId : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "barrier-logical-id",
        "barrier",
        Severity::Error,
        "lane id from the physical get_block_idx() instead of the logical get_block_idx(args)",
        {"the DeepSeek-V4 MoE fusion write-up §4.3 and 常见错误 3 (bare get_block_idx() is physical and sparse)",
         upstream::kMoeFusion, "pypto #1154 / #1363 (wrapper-passed logical block ids)",
         "pypto-lib cce-extern-kernel.md (dual_aiv_dispatch needs get_sub_block_id(args))"},
        // What it does not check: its page's section of that name.
        {"A PTOAS kernel launched directly (no `args`, no all-core barrier) may use the bare `get_block_idx()`; it is "
         "not reported."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return k.cpp != nullptr && (k.cpp->wrapper || t.has(OpKind::SyncAll));
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp) return;
    std::vector<const Op*> barriers = barriersOf(k);
    if (!k.cpp->wrapper && barriers.empty()) return;
    std::string why = k.cpp->wrapper ? "'" + k.name + "' is launched by the runtime, which numbers its lanes densely"
                                     : "'" + k.name + "' indexes an all-core barrier by lane";
    for (const auto& r : k.cpp->laneReads) {
      if (r.logical) continue;
      std::string fix = r.call == "get_subblockid" ? "get_sub_block_id(args)" : r.call + "(args)";
      Finding& f = ctx.report(r.loc, "bare " + r.call + "() reads the physical core id, which is sparse and need not "
                                     "start at 0 under runtime scheduling; " + why + ": use " + fix);
      if (!barriers.empty()) f.notes.push_back({barriers.front()->loc, "the barrier whose slots it indexes"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierLogicalId() { return std::make_unique<BarrierLogicalId>(); }

}  // namespace ptov
