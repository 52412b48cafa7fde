// Which rules have something to check in a kernel (for `ptoverify audit`'s Not-applicable).
#include "analyzer/model/cpp_facts.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"

#include <string_view>

namespace ptov {

KernelTraits kernelTraits(const Kernel& k) {
  KernelTraits t;
  static_assert(static_cast<unsigned>(OpKind::Other) < 64, "KernelTraits::kinds holds one bit per OpKind");
  forEachOp(*k.body, [&](const Op& op) {
    t.kinds |= uint64_t{1} << static_cast<unsigned>(op.kind);
    t.hivmCrossCore |= op.name.rfind("hivm.hir.", 0) == 0 && (op.kind == OpKind::CrossCoreSet ||
                                                              op.kind == OpKind::CrossCoreWait || op.kind == OpKind::SyncAll);
    t.softSync |= op.kind == OpKind::SyncAll && op.syncMode == "soft";
    t.cachePolicy |= !op.cachePolicy.empty();
  });
  for (const auto& p : k.params) t.cachePolicy |= p.synthetic;
  return t;
}

namespace {
bool hasAny(const KernelTraits& t, std::initializer_list<OpKind> kinds) {
  for (OpKind kind : kinds)
    if (t.has(kind)) return true;
  return false;
}
}  // namespace

bool ruleApplies(const std::string& id, const Kernel& k, const RuleSettings* settings) {
  return ruleApplies(id, k, kernelTraits(k), settings);
}

bool ruleApplies(const std::string& id, const Kernel& k, const KernelTraits& t, const RuleSettings* settings) {
  using K = OpKind;
  // Device-side control code (seed 003) has no ops: only the timing rules read it.
  bool machine = k.cpp && k.cpp->machine;
  if (id.rfind("timing-", 0) == 0) {
    if (!machine) return false;
    if (id == "timing-shared-field-write") return !k.cpp->machine->writes.empty();
    if (id == "timing-hard-wait-timeout") return !k.cpp->machine->waits.empty();
    const TimingConfig& timing = settings ? settings->timing : defaultTimingConfig();
    return stopStepsOf(k.cpp->machine->body, timing).qualifies();  // timing-stop-order
  }
  if (machine) return false;
  if (id == "sync-event-pairing" || id == "sync-deadlock" || id == "sync-exit-balance")
    return hasAny(t, {K::SetFlag, K::WaitFlag});
  if (id == "sync-pipe-race") return hasAny(t, {K::SetFlag, K::WaitFlag, K::PipeBarrier});
  if (id == "barrier-arrival") return t.has(K::SyncAll);
  if (id == "sync-core-pipe") return !coreKindOf(k).empty() && hasAny(t, {K::SetFlag, K::WaitFlag, K::PipeBarrier});
  if (id == "sync-reserved-event") return t.hivmCrossCore || hasAny(t, {K::SetFlag, K::WaitFlag});
  if (id == "sync-block-pairing") return t.hivmCrossCore;
  if (id == "sync-ffts-base") return hasAny(t, {K::CrossCoreSet, K::CrossCoreWait}) || t.hivmCrossCore;
  if (id == "comm-publish-fence") return hasAny(t, {K::Notify, K::Put, K::CacheInvalidate, K::Fence});
  if (id == "comm-wait-invalidate" || id == "comm-wait-batching") return hasAny(t, {K::Wait, K::Test});
  if (id == "comm-put-drain") return hasAny(t, {K::Put, K::Get, K::Collective});
  if (id == "ub-range") return hasAny(t, {K::TileAlloc, K::TileAssign}) || (k.cpp && !k.cpp->ubScratch.empty());
  if (id == "barrier-logical-id") return k.cpp != nullptr && (k.cpp->wrapper || t.has(K::SyncAll));
  if (id == "barrier-workspace") return k.cpp != nullptr && t.softSync;
  if (id == "barrier-participants" || id == "barrier-sync-start" || id == "barrier-data-visibility")
    return k.cpp != nullptr && t.has(K::SyncAll);
  if (id == "launch-dependencies") return k.cpp != nullptr && k.kind == "orchestration" && !k.cpp->launches.empty();
  if (id == "launch-early-resolve") return k.cpp != nullptr && t.has(K::SyncAll);
  if (id == "abi-order" || id == "cache-policy-wrapper") return k.cpp != nullptr && k.cpp->wrapper;
  if (id == "xcheck-sync") return k.irPeer != nullptr;
  if (id.rfind("cache-", 0) == 0) return t.cachePolicy;
  return true;
}

// The launch rules read how the kernel is submitted; without a linked launch they check the
// kernel's side only (or nothing), and audit must not call that a proof.
std::string ruleNotChecked(const std::string& ruleId, const Kernel& k) {
  std::string_view id = ruleId;  // compared as views: a length check first
  if (!k.cpp || k.kind == "orchestration") return "";  // first: most kernels are .pto ones
  bool launchRule = id == "barrier-sync-start" || id == "barrier-participants" || id == "barrier-workspace" ||
                    id == "launch-early-resolve";
  if (!launchRule) return "";
  if (k.launches.empty())
    return "no launch linked (give the orchestration code that submits this kernel as another input)" +
           std::string(id == "barrier-participants" ? ": that the launch has as many lanes as each barrier waits for, "
                                                      "no more and no fewer, is not checked"
                                                    : "");
  // barrier-participants compares counts and strides with one launched lane count.
  if (id == "barrier-participants" && !k.launchedLanes())
    return "the linked launches do not give one constant block_num";
  return "";
}

}  // namespace ptov
