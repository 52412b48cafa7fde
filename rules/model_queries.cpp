#include "rules/model_queries.h"

#include <deque>

namespace ptov {

bool isGmWriteOp(const Op& op) {
  switch (op.kind) {
    case OpKind::Store:
    case OpKind::ScalarStore:
    case OpKind::Put:
    case OpKind::Get:
    case OpKind::Collective:
      return op.writesGm();
    default:
      return false;
  }
}

std::vector<bool> canReach(const Flow& flow, const std::set<int>& targets) {
  std::vector<bool> reach(flow.nodes.size(), false);
  std::deque<int> work(targets.begin(), targets.end());
  for (int t : targets) reach[t] = true;
  while (!work.empty()) {
    int n = work.front();
    work.pop_front();
    for (int p : flow.nodes[n].pred)
      if (!reach[p]) {
        reach[p] = true;
        work.push_back(p);
      }
  }
  return reach;
}

std::set<int> publishingWriteNodes(const Flow& flow) {
  std::set<int> notifies;
  for (size_t i = 0; i < flow.nodes.size(); ++i)
    if (flow.nodes[i].op && flow.nodes[i].op->kind == OpKind::Notify) notifies.insert(static_cast<int>(i));
  // A notify must be reachable *after* the write, so ask from the write's successors.
  std::vector<bool> reach = canReach(flow, notifies);
  std::set<int> out;
  for (size_t i = 0; i < flow.nodes.size(); ++i) {
    const FlowNode& n = flow.nodes[i];
    if (!n.op || !isGmWriteOp(*n.op)) continue;
    bool peer = false;
    for (const auto& w : n.op->writes) peer |= w.peer;
    bool notifyAfter = false;
    for (int s : n.succ) notifyAfter |= reach[s];
    if (peer || notifyAfter) out.insert(static_cast<int>(i));
  }
  return out;
}

bool invalidateCovers(const Op& inval, const MemRef& m) {
  if (inval.kind != OpKind::CacheInvalidate) return false;
  if (inval.invalidateAll) return true;
  return inval.target.sameBuffer(m);
}

std::string describeBuffer(const Kernel& k, const MemRef& m) {
  std::string name;
  if (m.param >= 0 && m.param < static_cast<int>(k.params.size())) name = k.params[m.param].name;
  if (name.empty()) name = m.value;
  if (!m.value.empty() && m.value != name) name = m.value + " (from " + name + ")";
  if (m.peer) name += ", peer address";
  return name.empty() ? "GM" : name;
}

}  // namespace ptov
