// barrier-data-visibility: a soft barrier orders the counter, not the data. GM data written
// before a barrier and read after it needs a publish before the barrier (DCCI CACHELINE_OUT of
// the written lines, then dsb) and an acquire after it (invalidate the lines to be read, then dsb).
#include <set>

#include "rules/cpp_queries.h"
#include "rules/model_queries.h"
#include "rules/rule.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

bool covers(const Op& cmo, const MemRef& data) {
  return cmo.invalidateAll || (cmo.target.valid() && cmo.target.sameBuffer(data));
}

class BarrierDataVisibility : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "barrier-data-visibility",
        "barrier",
        Severity::Error,
        "GM data crosses a soft barrier without publish (CACHELINE_OUT + dsb) before it and "
        "invalidate + dsb after it",
        {"the DeepSeek-V4 MoE fusion write-up 不变量 6, §4.6 and 常见错误 6 (the barrier only maintains its counter)",
         upstream::kMoeFusion}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return k.cpp != nullptr && t.has(OpKind::SyncAll);
  }
  bool affectedBy(ModelGap::Kind kind) const override { return gapHidesAccesses(kind); }

  void check(const Kernel& k, RuleContext& ctx) const override {
    // The ops in program order (loop bodies once, both arms of an if).
    OpNumbering numbering(*k.body);
    const std::vector<const Op*>& ops = numbering.ops();
    std::vector<size_t> barriers;
    for (size_t i = 0; i < ops.size(); ++i)
      if (isSoftBarrier(*ops[i])) barriers.push_back(i);
    for (size_t bi = 0; bi < barriers.size(); ++bi) {
      size_t b = barriers[bi];
      size_t from = bi == 0 ? 0 : barriers[bi - 1] + 1;
      size_t to = bi + 1 < barriers.size() ? barriers[bi + 1] : ops.size();
      std::set<std::string> reported;
      for (size_t w = from; w < b; ++w)
        for (const MemRef& data : ops[w]->writes) {
          if (data.space != MemSpace::GM || !data.valid() || ops[w]->kind == OpKind::SyncAll) continue;
          size_t r = firstRead(ops, data, b + 1, to);
          if (r == to || !reported.insert(data.value + std::to_string(data.param)).second) continue;
          checkPair(k, ops, w, b, r, data, ctx);
        }
    }
  }

 private:
  static size_t firstRead(const std::vector<const Op*>& ops, const MemRef& data, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      for (const MemRef& r : ops[i]->reads)
        if (r.space == MemSpace::GM && r.sameBuffer(data) && ops[i]->kind != OpKind::SyncAll) return i;
    return to;
  }

  // A CMO covering `data` (a writeback one for the publish) followed by a dsb, in (from, to).
  // A publish of a write made by a pipe (TSTORE on MTE3) also needs the pipe drained
  // (pipe_barrier(PIPE_ALL)) before the writeback: else the line written back can predate the data.
  static bool maintained(const std::vector<const Op*>& ops, size_t from, size_t to, const MemRef& data, bool writeback,
                         bool needsDrain) {
    bool drained = !needsDrain, cmo = false;
    for (size_t i = from + 1; i < to; ++i) {
      const Op& op = *ops[i];
      if (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) drained = true;
      if (drained && op.kind == OpKind::CacheInvalidate && covers(op, data) && (op.writeback || !writeback)) cmo = true;
      if (cmo && op.kind == OpKind::Fence) return true;
    }
    return false;
  }

  static bool pipeWrite(const Op& op) {
    for (Pipe p : op.pipes)
      if (p != Pipe::S) return true;
    return false;
  }

  static void checkPair(const Kernel& k, const std::vector<const Op*>& ops, size_t w, size_t b, size_t r,
                        const MemRef& data, RuleContext& ctx) {
    std::string name = describeBuffer(k, data);
    bool drain = pipeWrite(*ops[w]);
    if (!maintained(ops, w, b, data, true, drain)) {
      Finding& f = ctx.report(ops[w]->loc, "'" + ops[w]->name + "' writes " + name + ", which is read after the soft "
                                               "barrier, but the lines are not published before it (" +
                                               (drain ? "pipe_barrier(PIPE_ALL), then " : "") +
                                               "dcci(..., CACHELINE_OUT) of the written lines, then dsb(DSB_DDR)): the "
                                               "barrier only maintains its own counter");
      f.notes.push_back({ops[b]->loc, "the barrier"});
      f.notes.push_back({ops[r]->loc, "the read on the other side"});
    }
    if (!maintained(ops, b, r, data, false, false)) {
      Finding& f = ctx.report(ops[r]->loc, "'" + ops[r]->name + "' reads " + name + " after the soft barrier without "
                                               "invalidating its lines first (dcci of the lines to read, then "
                                               "dsb(DSB_DDR)): it can read a stale cached copy");
      f.notes.push_back({ops[b]->loc, "the barrier"});
      f.notes.push_back({ops[w]->loc, "the write before the barrier"});
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierDataVisibility() { return std::make_unique<BarrierDataVisibility>(); }

}  // namespace ptov
