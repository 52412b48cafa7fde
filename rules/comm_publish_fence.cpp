// comm-publish-fence: a publishing write must be followed by a cacheinvalid that covers it
// and then a GM fence before any notify that can follow it (PyPTO's InsertCommFence pass,
// release side).
#include <set>

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
                            {"PyPTO InsertCommFence pass (release side)", "PTOAS v0.50 pto-memory-consistency",
                             "PTOAS #995", "PTOAS #872"},
        // What it does not check: its page's section of that name.
        {"Writes through calls to other functions are not followed.",
         "A write that touches only kernel parameters named in `host-read:` is not a publishing write; the code "
         "cannot show this, the configuration says it."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::Notify, OpKind::Put, OpKind::CacheInvalidate, OpKind::Fence});
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    const Flow& flow = ctx.proofs().flow();
    std::map<int, unsigned> publishing = publishingWriteNodes(flow);
    if (publishing.empty()) return;
    reportDataAfterLastNotify(k, flow, publishing, ctx);
    // A single-line invalidate whose bytes are not known may or may not cover a scalar store:
    // what fails even when it does is an error; what fails only when it does not is unknown.
    std::set<const Op*> reported;
    checkReleases(k, flow, publishing, Assume::Covers, reported, ctx);
    bool undecided = false;
    for (const auto& n : flow.nodes)
      for (const auto& [w, why] : publishing)
        undecided |= n.op && coversWrite(*n.op, *flow.nodes[w].op) == Coverage::Unknown;
    if (undecided) checkReleases(k, flow, publishing, Assume::DoesNotCover, reported, ctx);
  }

 private:
  enum class Assume { Covers, DoesNotCover };  // what a single-line invalidate of unknown bytes does

  void checkReleases(const Kernel& k, const Flow& flow, const std::map<int, unsigned>& publishing, Assume assume,
                     std::set<const Op*>& reported, RuleContext& ctx) const {
    using State = BitsState<int>;
    // The end of the kernel owes no fence: kernel completion drains every pipe and makes the
    // kernel's writes visible to the host and to the kernels after it (docs/publishing.md,
    // "Kernel completion"). Only a notify releases data while the kernel runs.
    auto transfer = [&](const FlowNode& n, State& s, bool reportNow) {
      if (!n.op) return;
      const Op& op = *n.op;
      int self = static_cast<int>(&n - flow.nodes.data());
      if (publishing.count(self)) s.bits[self] = kNeedsInvalidate;
      if (op.kind == OpKind::CacheInvalidate) {
        for (auto& [w, b] : s.bits)
          if ((b & kNeedsInvalidate) && covers(op, *flow.nodes[w].op, assume))
            b = (b & ~kNeedsInvalidate) | kNeedsFence;
      } else if (op.kind == OpKind::Fence && (op.fenceScope == FenceScope::GM || op.fenceScope == FenceScope::All)) {
        for (auto it = s.bits.begin(); it != s.bits.end();) {
          it->second &= ~kNeedsFence;
          it = it->second == 0 ? s.bits.erase(it) : std::next(it);
        }
      } else if (op.kind == OpKind::Notify) {
        if (reportNow)
          for (const auto& [w, b] : s.bits) {
            const Op& write = *flow.nodes[w].op;
            if (!onlyHostRead(k, write, ctx) && !reported.count(&write) &&
                reportPending(k, flow, write, b, &op, assume, ctx))
              reported.insert(&write);
          }
        s.bits.clear();  // reported once; the notify has published them
      }
    };
    solveThenReport(flow, State{}, transfer);
  }

  // Every GM buffer the write targets is a parameter the configuration says only the host reads
  // (after the kernel): no notify publishes it (docs/publishing.md).
  static bool onlyHostRead(const Kernel& k, const Op& write, const RuleContext& ctx) {
    bool any = false;
    for (const auto& w : write.writes) {
      if (w.space != MemSpace::GM) continue;
      bool param = !w.peer && w.param >= 0 && w.param < static_cast<int>(k.params.size());
      if (!param || !ctx.hostRead(k.params[w.param].name)) return false;
      any = true;
    }
    return any && write.kind != OpKind::Put && write.kind != OpKind::Collective;
  }

  // A DMA payload is covered by a marker that names its buffer (PTOAS lowers no DCCI for it); a
  // cached scalar store only by an invalidate that drops the lines it wrote.
  static Coverage coversWrite(const Op& inval, const Op& write) {
    if (inval.kind != OpKind::CacheInvalidate) return Coverage::NotCovered;
    bool cached = write.kind == OpKind::ScalarStore;
    Coverage best = Coverage::NotCovered;
    for (const auto& w : write.writes) {
      if (w.space != MemSpace::GM) continue;
      Coverage c = cached                       ? invalidateCoversBytes(inval, w)
                   : invalidateCovers(inval, w) ? Coverage::Covered
                                                : Coverage::NotCovered;
      if (c == Coverage::Covered) return c;
      if (c == Coverage::Unknown) best = c;
    }
    return best;
  }

  static bool covers(const Op& inval, const Op& write, Assume assume) {
    return coveredAssuming(coversWrite(inval, write), assume == Assume::Covers);
  }

  static std::string what(const Kernel& k, const Op& write) {
    std::string target = write.writes.empty() ? "GM" : describeBuffer(k, write.writes.front());
    return "'" + write.name + "' to " + target;
  }

  // The dataflow above merges paths; this asks Z3 whether a feasible path (branch conditions
  // and iteration values included) really runs the write, then the notify (or the end),
  // without a covering cacheinvalid followed by a GM fence in between.
  static Verdict confirm(const Op& write, const Op* notify, Assume assume, RuleContext& ctx) {
    auto invalidates = [&write, assume](const Op& op) { return covers(op, write, assume); };
    auto fences = [](const Op& op) {
      return op.kind == OpKind::Fence && (op.fenceScope == FenceScope::GM || op.fenceScope == FenceScope::All);
    };
    return ctx.proofs().pathAvoiding(write, notify, {invalidates, fences});
  }

  static Finding* report(const Verdict& v, const SourceLoc& loc, const std::string& msg, RuleContext& ctx,
                         const FindingNote& note) {
    Finding* f = ctx.reportVerdict(v, loc, msg);
    if (f) f->notes.insert(f->notes.begin(), note);
    return f;
  }

  // True when a finding was reported.
  bool reportPending(const Kernel& k, const Flow& flow, const Op& write, unsigned bits, const Op* notify, Assume assume,
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
    Verdict v = confirm(write, notify, assume, ctx);
    if (v.kind == Verdict::Kind::Violated && assume == Assume::DoesNotCover)
      v = Verdict::unknown("whether the single-line cacheinvalid covers the bytes it writes: they are not known");
    Finding* f = report(v, write.loc, msg, ctx, {notify->loc, "the notify that publishes it on the path below"});
    if (!f) return false;
    if (write.kind == OpKind::ScalarStore && !write.writes.empty())
      if (auto note = otherLineNote(flow, write.writes.front(), "over its iterations the store writes"))
        f->notes.insert(f->notes.begin() + 1, {note->first, note->second});
    return true;
  }

  // Data written after the kernel's last notify is not signalled by it: the notify can reach
  // the peer before the data (InsertCommFence: the notify follows the data it publishes).
  void reportDataAfterLastNotify(const Kernel& k, const Flow& flow, const std::map<int, unsigned>& publishing,
                                 RuleContext& ctx) const {
    const Op* anyNotify = nullptr;
    for (const auto& n : flow.nodes)
      if (n.op && n.op->kind == OpKind::Notify) anyNotify = n.op;
    if (!anyNotify) return;
    for (const auto& [w, why] : publishing) {
      if (why & kPublishNotified) continue;
      const Op& write = *flow.nodes[w].op;
      Finding& f = ctx.report(Severity::Warning, write.loc,
                              "publishing write " + what(k, write) +
                                  " comes after every notify of the kernel: no notify signals this data, and the "
                                  "peer may read it before it lands");
      f.notes.push_back({anyNotify->loc, "a notify that precedes the write"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeCommPublishFence() { return std::make_unique<CommPublishFence>(); }

}  // namespace ptov
