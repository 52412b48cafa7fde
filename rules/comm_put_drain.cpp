// comm-put-drain: a tput is a DMA; a GM fence orders memory but does not drain the MTE pipes
// that issued it. A `pto.barrier <PIPE_ALL>` must sit between the tput and its
// cacheinvalid / fence / notify (PyPTO's InsertCommFence pass; PTOAS #872: an MTE3 barrier is not enough).
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

constexpr unsigned kUndrained = 1;      // no PIPE_ALL barrier since the put
constexpr unsigned kPartialBarrier = 2;  // a narrower pipe barrier was seen (not enough)

class CommPutDrain : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"comm-put-drain",
                            "comm",
                            Severity::Error,
                            "tput not drained by pto.barrier <PIPE_ALL> before its cacheinvalid/fence/notify",
                            {"PyPTO's InsertCommFence pass (put trailing PIPE_ALL barrier)", upstream::kInsertCommFence,
                             "PTOAS #872", "PTOAS #1026"},
        // What it does not check: its page's section of that name.
        {"In a vector kernel a GM fence counts as the drain (PTOAS lowers it to `pipe_barrier(PIPE_ALL); "
         "dsb(DSB_DDR)`); what the fence lowers to is not checked."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::Put, OpKind::Get, OpKind::Collective});
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    const Flow& flow = ctx.proofs().flow();
    using State = BitsState<int>;
    auto transfer = [&](const FlowNode& n, State& s, bool reportNow) {
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (op.kind == OpKind::Put) {
        s.bits[self] = kUndrained;
      } else if (op.kind == OpKind::PipeBarrier) {
        if (op.barrierPipe == Pipe::ALL) s.bits.clear();
        else
          for (auto& [p, b] : s.bits) b |= kPartialBarrier;
      } else if (op.kind == OpKind::Fence && k.kind == KernelKind::Vector && k.frontEnd != FrontEnd::Hivm) {
        // PTOAS >= 0.54 lowers a GM fence in a vector kernel to pipe_barrier(PIPE_ALL); dsb(DDR) (#1033).
        // (A HIVM AIV kernel is no PTOAS output.)
        s.bits.clear();
      } else if (op.kind == OpKind::CacheInvalidate || op.kind == OpKind::Fence || op.kind == OpKind::Notify) {
        for (auto it = s.bits.begin(); it != s.bits.end();) {
          const Op& put = *flow.nodes[it->first].op;
          bool relevant = op.kind != OpKind::CacheInvalidate || coversPut(op, put);
          if (!relevant) {
            ++it;
            continue;
          }
          if (reportNow) {
            std::string msg = "'" + put.name + "' is not drained by 'pto.barrier <PIPE_ALL>' before '" + op.name +
                              "'; the DMA may still be in flight when the signal is published";
            if (it->second & kPartialBarrier) msg += " (a narrower pipe barrier is not enough)";
            Finding& f = ctx.report(put.loc, msg);
            f.notes.push_back({op.loc, "reached here without a PIPE_ALL barrier"});
          }
          it = s.bits.erase(it);
        }
      }
    };
    solveThenReport(flow, State{}, transfer);
  }

 private:
  static bool coversPut(const Op& inval, const Op& put) {
    for (const auto& w : put.writes)
      if (invalidateCovers(inval, w)) return true;
    return false;
  }
};

}  // namespace

std::unique_ptr<Rule> makeCommPutDrain() { return std::make_unique<CommPutDrain>(); }

}  // namespace ptov
