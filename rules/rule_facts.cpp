// What the rules' own facts share: the kernel traits their applicability reads, option
// defaults, the gaps that hide ops.
#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"

namespace ptov {

KernelTraits kernelTraits(const Kernel& k) {
  KernelTraits t;
  static_assert(static_cast<unsigned>(OpKind::Other) < 64, "KernelTraits::kinds holds one bit per OpKind");
  forEachOp(*k.body, [&](const Op& op) {
    t.kinds |= uint64_t{1} << static_cast<unsigned>(op.kind);
    t.hivmCrossCore |=
        op.dialect == Dialect::Hivm &&
        (op.kind == OpKind::CrossCoreSet || op.kind == OpKind::CrossCoreWait || op.kind == OpKind::SyncAll);
    t.softSync |= op.kind == OpKind::SyncAll && op.syncMode == SyncMode::Soft;
    t.cachePolicy |= op.cachePolicy != CachePolicy::Default;
  });
  for (const auto& p : k.params) t.cachePolicy |= p.synthetic;
  return t;
}

bool gapHidesOps(ModelGap::Kind kind) {
  return kind == ModelGap::Kind::UndeclaredCall || kind == ModelGap::Kind::OpaqueCall ||
         kind == ModelGap::Kind::OpaqueOp || kind == ModelGap::Kind::SkippedCode;
}

bool gapHidesAccesses(ModelGap::Kind kind) {
  return gapHidesOps(kind) || kind == ModelGap::Kind::UnresolvedAddress;
}

bool Rule::appliesTo(const Kernel& k, const KernelTraits& t, const RuleSettings* settings) const {
  static const RuleSettings defaults;
  bool controlCode = k.cpp && k.cpp->machine;
  return controlCode == readsControlCode() && applies(k, t, settings ? *settings : defaults);
}

}  // namespace ptov
