// comm-publish-fence: a publishing write must be followed by a cacheinvalid that covers it
// and then a GM fence before any notify that can follow it (seed 000, release side).
#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

// Abstract states of one pending publishing write (bits, joined over paths).
constexpr unsigned kNeedsInvalidate = 1;  // written, no covering cacheinvalid yet
constexpr unsigned kNeedsFence = 2;       // invalidated, no GM fence after it yet

class CommPublishFence : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"comm-publish-fence", "comm", Severity::Error,
                            "publishing write not followed by cacheinvalid + GM fence before notify",
                            {"seed 000 (InsertCommFence: release side)", "PTOAS v0.50 pto-memory-consistency",
                             "PTOAS #995", "PTOAS #872"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    Flow flow = Flow::build(*k.body);
    std::set<int> publishing = publishingWriteNodes(flow);
    if (publishing.empty()) return;
    using State = BitsState<int>;
    auto transfer = [&](const FlowNode& n, State& s, bool reportNow) {
      if (n.kind == FlowNode::Kind::Exit) {
        if (reportNow) reportPendingAtExit(k, flow, s, ctx);
        return;
      }
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (publishing.count(self)) s.bits[self] = kNeedsInvalidate;
      if (op.kind == OpKind::CacheInvalidate) {
        for (auto& [w, b] : s.bits)
          if ((b & kNeedsInvalidate) && coversWrite(op, *flow.nodes[w].op)) b = (b & ~kNeedsInvalidate) | kNeedsFence;
      } else if (op.kind == OpKind::Fence && (op.fenceScope == "gm" || op.fenceScope == "all")) {
        for (auto it = s.bits.begin(); it != s.bits.end();) {
          it->second &= ~kNeedsFence;
          it = it->second == 0 ? s.bits.erase(it) : std::next(it);
        }
      } else if (op.kind == OpKind::Notify) {
        if (reportNow)
          for (const auto& [w, b] : s.bits) reportPending(k, *flow.nodes[w].op, b, &op, ctx);
        s.bits.clear();  // reported once; the notify has published them
      }
    };
    solveThenReport(flow, State{}, transfer);
  }

 private:
  static bool coversWrite(const Op& inval, const Op& write) {
    for (const auto& w : write.writes)
      if (w.space == "gm" && invalidateCovers(inval, w)) return true;
    return false;
  }

  static std::string what(const Kernel& k, const Op& write) {
    std::string target = write.writes.empty() ? "GM" : describeBuffer(k, write.writes.front());
    return "'" + write.name + "' to " + target;
  }

  void reportPending(const Kernel& k, const Op& write, unsigned bits, const Op* notify,
                     RuleContext& ctx) const {
    std::string msg;
    if (bits & kNeedsInvalidate)
      msg = "publishing write " + what(k, write) +
            " is not followed by a 'pto.cmo.cacheinvalid' covering it and a "
            "'pto.fence.barrier_all #pto.fence_scope<gm>' before the notify";
    else
      msg = "publishing write " + what(k, write) +
            " is invalidated but no 'pto.fence.barrier_all #pto.fence_scope<gm>' follows the "
            "cacheinvalid before the notify";
    Finding& f = ctx.report(write.loc, msg);
    if (notify) f.notes.push_back({notify->loc, "the notify that can publish it on some path"});
  }

  void reportPendingAtExit(const Kernel& k, const Flow& flow, const BitsState<int>& s,
                           RuleContext& ctx) const {
    for (const auto& [w, b] : s.bits) {
      const Op& write = *flow.nodes[w].op;
      bool peer = false;
      for (const auto& m : write.writes) peer |= m.peer;
      std::string msg;
      if (peer) {
        msg = "peer write " + what(k, write) +
              ((b & kNeedsInvalidate) ? " has no covering cacheinvalid and GM fence" : " has no GM fence after its cacheinvalid") +
              " before the kernel ends";
      } else if (b & kNeedsFence) {
        // Local writes matter at the end only when the kernel started their release marker.
        msg = "write " + what(k, write) +
              " is invalidated as a published buffer, but no 'pto.fence.barrier_all #pto.fence_scope<gm>' follows "
              "before the kernel ends";
      } else {
        continue;
      }
      Finding& f = ctx.report(write.loc, msg);
      f.notes.push_back({k.loc, "kernel '" + k.name + "' can end with the write unfenced"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeCommPublishFence() { return std::make_unique<CommPublishFence>(); }

}  // namespace ptov
