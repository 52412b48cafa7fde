#include "rules/cpp_queries.h"

#include <map>

namespace ptov {

std::vector<const Op*> barriersOf(const Kernel& k) {
  std::vector<const Op*> out;
  forEachOp(*k.body, [&](const Op& op) {
    if (op.kind == OpKind::SyncAll) out.push_back(&op);
  });
  return out;
}

SourceLoc siteOf(const Op& barrier) { return barrier.callSite.line > 0 ? barrier.callSite : barrier.loc; }

bool isSoftBarrier(const Op& op) { return op.kind == OpKind::SyncAll && op.syncMode == SyncMode::Soft; }

std::vector<std::vector<const Op*>> barrierCounters(const Kernel& k) {
  std::map<std::string, size_t> index;
  std::vector<std::vector<const Op*>> out;
  for (const Op* b : barriersOf(k)) {
    std::string key = std::string(syncModeName(b->syncMode)) + "|" + coreTypeName(b->coreType, b->dialect) + "|" +
                      (b->uses.empty() ? "" : b->uses.front());
    auto [it, fresh] = index.emplace(key, out.size());
    if (fresh) out.emplace_back();
    out[it->second].push_back(b);
  }
  return out;
}

std::string counterText(const Op& barrier) {
  return barrier.uses.empty() ? "" : "workspace " + barrier.uses.front();
}

const LaunchArg* launchArgAt(const LaunchFacts& l, int64_t index) {
  int64_t i = 0;
  for (const auto& a : l.args)
    if (a.method != "add_scalar" && i++ == index) return &a;
  return nullptr;
}

std::optional<int64_t> argsIndexOf(const std::string& v) {
  if (v.rfind("args[", 0) != 0 || v.back() != ']') return std::nullopt;
  try {
    size_t used = 0;
    int64_t i = std::stoll(v.substr(5, v.size() - 6), &used);
    if (used == v.size() - 6) return i;
  } catch (...) {
  }
  return std::nullopt;
}

}  // namespace ptov
