// comm-wait-invalidate: after a twait / ttest, the next cacheable GM read (a scalar load: DMA
// reads such as tload do not go through the core's data cache) must come after a whole-GM
// cacheinvalid, or a single-line invalidate whose 64-byte line holds the bytes it reads, on every
// path (PyPTO's InsertCommFence pass, consumer side).
#include <algorithm>
#include <set>

#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

struct AcquireState {
  // acquire node -> single-line invalidates run since it (intersection over paths)
  std::map<int, std::set<const Op*>> pending;
  bool join(const AcquireState& o) {
    bool changed = false;
    for (const auto& [n, lines] : o.pending) {
      auto it = pending.find(n);
      if (it == pending.end()) {
        pending[n] = lines;
        changed = true;
        continue;
      }
      std::set<const Op*> both;
      for (const auto& l : it->second)
        if (lines.count(l)) both.insert(l);
      if (both != it->second) {
        it->second = both;
        changed = true;
      }
    }
    return changed;
  }
};

// A single-line invalidate of unknown bytes may or may not drop the read's line.
bool covers(const Op& inval, const MemRef& read, bool assumeUnknownCovers) {
  return inval.kind == OpKind::CacheInvalidate && coveredAssuming(invalidateCoversBytes(inval, read), assumeUnknownCovers);
}

class CommWaitInvalidate : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"comm-wait-invalidate", "comm", Severity::Error,
                            "cacheable GM read after twait/ttest without a cache invalidate first",
                            {"PyPTO InsertCommFence pass (consumer side)", "PTOAS v0.50 pto-memory-consistency",
                             "AscendC DataCacheCleanAndInvalid"},
        // What it does not check: its page's section of that name.
        {"In C++, a field read through a GM pointer (`ctx->rankId`, `tensor->shapes[i]`) is not a cacheable read: it "
         "reads a descriptor the model does not tell apart from the data it describes.",
         "`ttest` is treated as an acquire on both of its outcomes; its result is not tied to the branch it guards."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::Wait, OpKind::Test});
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    const Flow& flow = ctx.proofs().flow();
    const GmBufferUse use(k);
    auto transfer = [&](const FlowNode& n, AcquireState& s, bool reportNow) {
      if (n.kind == FlowNode::Kind::Exit) {
        if (reportNow) reportUninvalidatedAtExit(k, flow, s, ctx);
        return;
      }
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (op.kind == OpKind::Wait || op.kind == OpKind::Test) {
        s.pending[self].clear();
      } else if (op.kind == OpKind::CacheInvalidate) {
        if (op.invalidateAll) s.pending.clear();
        else
          for (auto& [acq, lines] : s.pending) lines.insert(&op);
      } else if (isCacheableGmRead(op)) {
        const MemRef& r = firstGmRead(op);
        for (auto it = s.pending.begin(); it != s.pending.end();) {
          auto dropsLine = [&r](const Op* inval) { return covers(*inval, r, false); };
          if (std::any_of(it->second.begin(), it->second.end(), dropsLine)) {
            ++it;
            continue;
          }
          if (reportNow) {
            // Confirmed on a feasible path: the acquire, then this read, with no invalidate
            // covering it in between. An invalidate whose line is not known counts as covering
            // it; a path that needs it to is unknown.
            const Op& acq = *flow.nodes[it->first].op;
            auto sure = [&r](const Op& o) { return covers(o, r, false); };
            auto maybe = [&r](const Op& o) { return covers(o, r, true); };
            Verdict v = ctx.proofs().pathAvoiding(acq, &op, {maybe});
            if (v.kind != Verdict::Kind::Violated &&
                ctx.proofs().pathAvoiding(acq, &op, {sure}).kind == Verdict::Kind::Violated)
              v = Verdict::unknown(
                  "whether the single-line cacheinvalid before it covers the bytes it reads: they "
                  "are not known");
            // A stale line needs a writer. No code of this kernel writes a kernel input or the
            // communication context, so only another kernel could: a warning.
            GmBufferUse::Use writer = use.written(r);
            if (v.kind == Verdict::Kind::Violated && writer == GmBufferUse::Use::Untraced)
              v = Verdict::unknown("whether a peer writes " + describeBuffer(k, r) +
                                   ": a write of this kernel whose buffer ptoverify could not trace may");
            std::string msg = "cacheable GM read '" + op.name + "' of " + describeBuffer(k, r) + " after '" + acq.name +
                              "' with no 'pto.cmo.cacheinvalid all #pto.address_space<gm>' before it on some path";
            if (writer == GmBufferUse::Use::None)
              msg += ": no code of this kernel writes it, so its lines are stale only if another kernel writes it "
                     "while this one runs";
            Finding* f = ctx.reportVerdict(v, op.loc, msg);
            if (f) {
              f->notes.insert(f->notes.begin(), {acq.loc, "the signal acquire it follows"});
              if (auto note = otherLineNote(flow, r, "the read is of"))
                f->notes.insert(f->notes.begin() + 1, {note->first, note->second});
              if (!f->unknown && writer == GmBufferUse::Use::None) f->severity = Severity::Warning;
            }
          }
          it = s.pending.erase(it);  // the first unprotected read per path is reported
        }
      }
    };
    solveThenReport(flow, AcquireState{}, transfer);
  }

 private:
  // PyPTO's InsertCommFence invalidates after every wait because the next cacheable read may
  // be in a later kernel on this core. No read of this kernel is stale, so a twait (a ttest may
  // fail and acquire nothing) that reaches the end with no invalidate at all is a warning.
  void reportUninvalidatedAtExit(const Kernel& k, const Flow& flow, const AcquireState& s, RuleContext& ctx) const {
    for (const auto& [acq, lines] : s.pending) {
      const Op& wait = *flow.nodes[acq].op;
      if (wait.kind != OpKind::Wait || !lines.empty()) continue;
      auto invalidates = [](const Op& o) { return o.kind == OpKind::CacheInvalidate; };
      Finding* f = ctx.reportVerdict(ctx.proofs().pathAvoiding(wait, nullptr, {invalidates}), wait.loc,
                                     "'" + wait.name +
                                         "' is not followed by 'pto.cmo.cacheinvalid all #pto.address_space<gm>' "
                                         "before the kernel ends on some path: a scalar read of the payload in a "
                                         "later kernel on this core may see lines cached before the signal");
      if (!f) continue;
      if (!f->unknown) f->severity = Severity::Warning;
      f->notes.insert(f->notes.begin(), {k.loc, "kernel '" + k.name + "'"});
    }
  }

  // Only the scalar unit reads GM through the core's data cache; DMA reads (tload, MTE2) see
  // GM itself (AscendC DataCacheCleanAndInvalid; PTOAS v0.50 checked only load_scalar).
  static bool isCacheableGmRead(const Op& op) { return op.kind == OpKind::ScalarLoad && op.readsGm(); }
  static const MemRef& firstGmRead(const Op& op) {
    for (const auto& r : op.reads)
      if (r.space == MemSpace::GM) return r;
    return op.reads.front();
  }
};

}  // namespace

std::unique_ptr<Rule> makeCommWaitInvalidate() { return std::make_unique<CommWaitInvalidate>(); }

}  // namespace ptov
