#include "rules/model_queries.h"

#include "analyzer/model/cpp_facts.h"

#include <algorithm>
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

namespace {
// Nodes from which some op satisfying `pred` is reachable.
template <class Pred>
std::vector<bool> canReachOp(const Flow& flow, Pred pred) {
  std::set<int> targets;
  for (size_t i = 0; i < flow.nodes.size(); ++i)
    if (flow.nodes[i].op && pred(*flow.nodes[i].op)) targets.insert(static_cast<int>(i));
  return canReach(flow, targets);
}

// Is a node marked in `reach` reachable after `from` (from one of its successors)?
bool after(const Flow& flow, int from, const std::vector<bool>& reach) {
  for (int s : flow.nodes[from].succ)
    if (reach[s]) return true;
  return false;
}
}  // namespace

std::set<int> stagingBuffers(const Flow& flow) {
  std::set<int> sent, peerAddressed;
  auto see = [&](const MemRef& m) {
    if (m.param >= 0 && m.peer && m.space == MemSpace::GM) peerAddressed.insert(m.param);  // the string test last
  };
  for (const FlowNode& n : flow.nodes) {
    if (!n.op) continue;
    for (const MemRef& r : n.op->reads) see(r);
    for (const MemRef& w : n.op->writes) see(w);
    see(n.op->target);
    if (n.op->kind == OpKind::Put)
      for (const MemRef& r : n.op->reads)
        if (r.param >= 0 && !r.peer && r.space == MemSpace::GM) sent.insert(r.param);
  }
  std::set<int> staging;
  for (int p : sent)
    if (!peerAddressed.count(p)) staging.insert(p);
  return staging;
}

std::map<int, unsigned> publishingWriteNodes(const Flow& flow) {
  const std::set<int> staging = stagingBuffers(flow);
  const std::vector<bool> toNotify = canReachOp(flow, [](const Op& op) { return op.kind == OpKind::Notify; });
  const std::vector<bool> toFence = canReachOp(flow, [](const Op& op) { return op.kind == OpKind::Fence; });
  std::map<std::string, std::vector<bool>> toMarkerOf;  // per written buffer, computed once
  std::map<int, unsigned> out;
  for (size_t i = 0; i < flow.nodes.size(); ++i) {
    const FlowNode& n = flow.nodes[i];
    if (!n.op || !isGmWriteOp(*n.op)) continue;
    const Op& write = *n.op;
    int self = static_cast<int>(i);
    unsigned reasons = 0;
    bool onlyStaging = true;  // every GM buffer it writes is a staging buffer
    for (const auto& w : write.writes) {
      if (w.peer) reasons |= kPublishPeer;
      if (w.space != MemSpace::GM) continue;
      onlyStaging &= !w.peer && w.param >= 0 && staging.count(w.param) > 0;
      // The generator's own release marker: a single-line invalidate of the written buffer.
      std::string key = w.param >= 0 ? std::to_string(w.param) + (w.peer ? "p" : "") : w.value;  // as sameBuffer
      auto it = toMarkerOf.find(key);
      if (it == toMarkerOf.end())
        it = toMarkerOf
                 .emplace(key, canReachOp(flow,
                                          [&](const Op& op) {
                                            return op.kind == OpKind::CacheInvalidate && !op.invalidateAll &&
                                                   invalidateCovers(op, w);
                                          }))
                 .first;
      if (after(flow, self, it->second)) reasons |= kPublishMarked;
    }
    // A notify publishes what peers can read: not a staging buffer, which only this kernel's own
    // tput reads (and which that tput then publishes itself, to a peer address).
    if (!onlyStaging && after(flow, self, toNotify)) reasons |= kPublishNotified;
    // A fence after a cached scalar store only makes sense as its release.
    if (write.kind == OpKind::ScalarStore && after(flow, self, toFence)) reasons |= kPublishFenced;
    if (reasons) out[self] = reasons;
  }
  return out;
}

GmBufferUse::GmBufferUse(const Kernel& k) {
  forEachOp(*k.body, [&](const Op& op) {
    for (const auto& m : op.writes) {
      if (m.space != MemSpace::GM) continue;
      if (m.param < 0 && m.value.empty()) untracedWrite_ = true;
      else writes_.insert(keyOf(m));
    }
  });
}

std::string GmBufferUse::keyOf(const MemRef& m) {
  return m.param >= 0 ? "p" + std::to_string(m.param) : "v" + m.value;
}

bool invalidateCovers(const Op& inval, const MemRef& m) {
  if (inval.kind != OpKind::CacheInvalidate) return false;
  if (inval.invalidateAll) return true;
  return inval.target.sameBuffer(m);
}

std::string byteRangeText(const std::optional<std::pair<int64_t, int64_t>>& range) {
  return range ? "bytes [" + std::to_string(range->first) + ", " + std::to_string(range->second) + ")"
               : "bytes not known";
}

Coverage invalidateCoversBytes(const Op& inval, const MemRef& m) {
  if (!invalidateCovers(inval, m)) return Coverage::NotCovered;
  if (inval.invalidateAll) return Coverage::Covered;
  const MemRef& line = inval.target;
  if (line.byteRange && m.byteRange)
    return m.byteRange->first >= line.byteRange->first && m.byteRange->second <= line.byteRange->second
               ? Coverage::Covered
               : Coverage::NotCovered;
  // One naturally aligned element at the line's own first byte lies in that line.
  bool element = m.byteSize > 0 && m.byteSize <= line.byteSize && (m.byteSize & (m.byteSize - 1)) == 0;
  if (element && line.byteStart && m.byteStart && toString(line.byteStart) == toString(m.byteStart))
    return Coverage::Covered;
  return Coverage::Unknown;
}

std::optional<std::pair<SourceLoc, std::string>> otherLineNote(const Flow& flow, const MemRef& m,
                                                               const std::string& access) {
  for (const auto& n : flow.nodes)
    if (n.op && n.op->kind == OpKind::CacheInvalidate && !n.op->invalidateAll && invalidateCovers(*n.op, m) &&
        invalidateCoversBytes(*n.op, m) == Coverage::NotCovered)
      return std::make_pair(n.op->loc, "this single_cache_line invalidate drops one 64-byte line, " +
                                           byteRangeText(n.op->target.byteRange) + " of the buffer; " + access + " " +
                                           byteRangeText(m.byteRange));
  return std::nullopt;
}

std::string describeBuffer(const Kernel& k, const MemRef& m) {
  std::string name;
  if (m.param >= 0 && m.param < static_cast<int>(k.params.size())) name = k.params[m.param].name;
  if (name.empty()) name = m.value;
  if (!m.value.empty() && m.value != name) name = m.value + " (from " + name + ")";
  if (m.peer) name += ", peer address";
  return name.empty() ? "GM" : name;
}

OpNumbering::OpNumbering(const Stmt& body) {
  std::vector<Context> around;
  walk(body, around);
}

void OpNumbering::walk(const Stmt& s, std::vector<Context>& around) {
  if (s.kind == Stmt::Kind::OpStmt) {
    index_[&s.op] = static_cast<int>(ops_.size());
    ops_.push_back(&s.op);
    context_.push_back(around);
    return;
  }
  bool isLoop = s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While;
  if (isLoop) {
    loopRanges_.push_back({static_cast<int>(ops_.size()), static_cast<int>(ops_.size())});
    around.push_back({&s, -1, static_cast<int>(loopRanges_.size()) - 1});
  }
  for (size_t i = 0; i < s.children.size(); ++i) {
    if (s.kind == Stmt::Kind::If) around.push_back({&s, static_cast<int>(i)});
    walk(*s.children[i], around);
    if (s.kind == Stmt::Kind::If) around.pop_back();
  }
  if (isLoop) {
    loopRanges_[around.back().loop].second = static_cast<int>(ops_.size()) - 1;
    around.pop_back();
  }
}

bool OpNumbering::inLoop(size_t index) const {
  const auto& around = context_[index];
  return std::any_of(around.begin(), around.end(), [](const Context& c) { return c.loop >= 0; });
}

int OpNumbering::lastUse(const std::string& value, int def) const {
  int last = def;
  for (size_t i = 0; i < ops_.size(); ++i) {
    bool uses = false;
    for (const auto& u : ops_[i]->uses) uses |= u == value;
    for (const auto* refs : {&ops_[i]->reads, &ops_[i]->writes})
      for (const MemRef& m : *refs) uses |= m.value == value;
    if (!uses) continue;
    last = std::max(last, static_cast<int>(i));
    for (const Context& c : context_[i])
      if (c.loop >= 0 && def < loopRanges_[c.loop].first) last = std::max(last, loopRanges_[c.loop].second);
  }
  return last;
}

std::string launchNotLinked(const Kernel& k) {
  if (!k.cpp || k.kind == KernelKind::Orchestration || !k.launches.empty()) return "";
  return "no launch linked (give the orchestration code that submits this kernel as another input)";
}

KernelKind coreKindOf(const Kernel& k) {
  if (k.cpp) return k.view == CoreView::Aiv ? KernelKind::Vector : k.view == CoreView::Aic ? KernelKind::Cube : KernelKind::Unknown;
  return k.kind == KernelKind::Vector || k.kind == KernelKind::Cube ? k.kind : KernelKind::Unknown;
}

}  // namespace ptov
