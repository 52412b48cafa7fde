// comm-wait-batching (note): a loop, or a run of statements, that only waits and invalidates
// after every wait. No memory access sits between the waits, so one whole-GM invalidate after
// the last wait is equivalent: (P-1) full-cache flushes per barrier generation become 1 (PyPTO's
// InsertCommFence pass).
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

struct PurityScan {
  int waits = 0;
  int invalidates = 0;
  const Op* firstInvalidate = nullptr;
  bool pure = true;
};

// Through Seq/If nesting, the body may contain only waits and whole-GM invalidates.
void scanPure(const Stmt& s, PurityScan& scan) {
  switch (s.kind) {
    case Stmt::Kind::OpStmt:
      if (s.op.kind == OpKind::Wait) {
        ++scan.waits;
      } else if (s.op.kind == OpKind::CacheInvalidate && s.op.invalidateAll) {
        ++scan.invalidates;
        if (!scan.firstInvalidate) scan.firstInvalidate = &s.op;
      } else {
        scan.pure = false;
      }
      return;
    case Stmt::Kind::Seq:
    case Stmt::Kind::If:
      for (const auto& c : s.children) scanPure(*c, scan);
      return;
    default:
      scan.pure = false;  // nested loops and CFG blocks are not "pure wait" bodies
  }
}

class CommWaitBatching : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "comm-wait-batching",
        "comm",
        Severity::Note,
        "pure wait loop invalidates after every wait; one invalidate after it suffices",
        {"PyPTO's InsertCommFence pass (consumer-side batching: (P-1) flushes -> 1)", upstream::kInsertCommFence},
        // What it does not check: its page's section of that name.
        {"Only two shapes are looked for: a loop whose body only waits and invalidates the whole GM, and a straight "
         "run of two or more wait and whole-GM invalidate pairs.",
         "A run with any memory access between the waits is not reported."}};
    return i;
  }

  bool applies(const Kernel&, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::Wait, OpKind::Test});
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override { visit(*k.body, ctx); }

 private:
  void visit(const Stmt& s, RuleContext& ctx) const {
    if (s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::While) {
      PurityScan scan;
      for (const auto& c : s.children) scanPure(*c, scan);
      if (scan.pure && scan.waits >= 1 && scan.invalidates >= 1) {
        Finding& f = ctx.report(scan.firstInvalidate->loc,
                                "whole-GM cacheinvalid inside a loop that only waits: invalidate once after "
                                "the loop instead of after every wait");
        f.notes.push_back({s.loc, "the pure wait loop"});
        return;
      }
    }
    if (s.kind == Stmt::Kind::Seq) checkConsecutiveWaits(s, ctx);
    for (const auto& c : s.children)
      if (c) visit(*c, ctx);
  }

  // wait; invalidate; wait; invalidate ... in one sequence.
  void checkConsecutiveWaits(const Stmt& seq, RuleContext& ctx) const {
    int pairs = 0;
    const Op* first = nullptr;
    auto flush = [&] {
      if (pairs >= 2)
        ctx.report(first->loc,
                   "consecutive waits each followed by a whole-GM cacheinvalid: one invalidate after the "
                   "last wait is enough");
      pairs = 0;
      first = nullptr;
    };
    const auto& c = seq.children;
    for (size_t i = 0; i < c.size(); ++i) {
      bool isPair = i + 1 < c.size() && c[i]->kind == Stmt::Kind::OpStmt && c[i]->op.kind == OpKind::Wait &&
                    c[i + 1]->kind == Stmt::Kind::OpStmt && c[i + 1]->op.kind == OpKind::CacheInvalidate &&
                    c[i + 1]->op.invalidateAll;
      if (isPair) {
        if (!first) first = &c[i + 1]->op;
        ++pairs;
        ++i;
      } else {
        flush();
      }
    }
    flush();
  }
};

}  // namespace

std::unique_ptr<Rule> makeCommWaitBatching() { return std::make_unique<CommWaitBatching>(); }

}  // namespace ptov
