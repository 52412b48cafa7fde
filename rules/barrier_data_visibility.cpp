// barrier-data-visibility: a soft barrier orders the counter, not the data. GM data written
// before a barrier and read after it needs a publish before the barrier (DCCI CACHELINE_OUT of
// the written lines, then dsb) and an acquire after it (invalidate the lines to be read, then dsb).
#include <algorithm>
#include <set>

#include "analyzer/model/op_registry.h"
#include "rules/cpp_queries.h"
#include "rules/line_walks.h"
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
         upstream::kMoeFusion},
        // What it does not check: its page's section of that name.
        {"A dcci of the whole cache, one whose bytes are not known, or single lines in a loop that is not a walk over "
         "lines count as covering the buffer: their bytes are not compared.",
         "Ops are taken in program order with each loop body once."}};
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
          auto [r, read] = firstRead(ops, data, b + 1, to);
          if (!read || !reported.insert(data.value + std::to_string(data.param)).second) continue;
          checkPair(k, ops, numbering, w, b, r, data, *read, ctx);
        }
    }
  }

 private:
  // The first op in [from, to) that reads `data`'s buffer, and its read (null when none does).
  static std::pair<size_t, const MemRef*> firstRead(const std::vector<const Op*>& ops, const MemRef& data,
                                                    size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      for (const MemRef& r : ops[i]->reads)
        if (r.space == MemSpace::GM && r.sameBuffer(data) && ops[i]->kind != OpKind::SyncAll) return {i, &r};
    return {to, nullptr};
  }

  // How the CMOs before a dsb hold the bytes of an access: all of them, some missed (`why`
  // says which the CMO at `cmo` holds), or not known (`why` says why).
  struct Held {
    enum class Kind { All, Missed, Unknown } kind = Kind::Missed;
    const Op* cmo = nullptr;
    std::string why;
  };

  // The CMOs covering `data` (writeback ones for the publish) followed by a dsb, in (from, to),
  // for the access at op `access`. A publish of a write made by a pipe (TSTORE on MTE3) also
  // needs the pipe drained (pipe_barrier(PIPE_ALL)) before the writeback: else the line written
  // back can predate the data. The CMOs before each dsb count together, the earlier ones too.
  static Held maintained(const std::vector<const Op*>& ops, const OpNumbering& numbering, size_t from, size_t to,
                         size_t access, const MemRef& data, bool writeback, bool needsDrain, ProofContext& proofs) {
    const char* what = writeback ? "written" : "read";
    bool drained = !needsDrain;
    std::vector<size_t> cmos;
    Held last;
    for (size_t i = from + 1; i < to; ++i) {
      const Op& op = *ops[i];
      if (op.kind == OpKind::PipeBarrier && op.barrierPipe == Pipe::ALL) drained = true;
      if (drained && op.kind == OpKind::CacheInvalidate && covers(op, data) && (op.writeback || !writeback))
        cmos.push_back(i);
      if (cmos.empty() || op.kind != OpKind::Fence) continue;
      last = held(ops, numbering, cmos, access, data, what, proofs);
      if (last.kind == Held::Kind::All) return last;
    }
    return last;
  }

  static Held held(const std::vector<const Op*>& ops, const OpNumbering& numbering, const std::vector<size_t>& cmos,
                   size_t access, const MemRef& data, const std::string& what, ProofContext& proofs) {
    std::vector<size_t> lines;  // single lines that are no walk
    Held unknown{Held::Kind::Unknown, nullptr, ""};
    for (size_t i : cmos) {
      const MemRef& t = ops[i]->target;
      if (ops[i]->invalidateAll || (!t.walkFrom && t.byteSize != kCacheLineBytes))
        return {Held::Kind::All, nullptr, ""};
      if (!t.walkFrom) {
        lines.push_back(i);
        continue;
      }
      Verdict v = walkHoldsAccess(numbering, i, access, data, proofs);
      if (v.kind == Verdict::Kind::Proved) return {Held::Kind::All, nullptr, ""};
      if (!unknown.cmo) unknown = {Held::Kind::Unknown, ops[i], v.reason};
    }
    std::optional<std::string> missed =
        lines.empty() ? std::nullopt : linesMissBytes(ops, numbering, lines, data, what);
    if (!lines.empty() && !missed) return {Held::Kind::All, nullptr, ""};
    if (unknown.cmo) return unknown;
    return {Held::Kind::Missed, ops[lines.front()], *missed};
  }

  // Do these single-line dccis (no walks) miss some byte of `data`, as far as their bytes are
  // known? Then what they hold. Known: lines at constant bytes against the data's constant bytes,
  // or one line that runs once (outside every loop) against data spanning more than a line, whose
  // first and last bytes no one line holds. Lines in a loop that is no walk, or bytes not known:
  // the buffer counts as covered (docs/rules/barrier-data-visibility.md).
  static std::optional<std::string> linesMissBytes(const std::vector<const Op*>& ops, const OpNumbering& numbering,
                                                   const std::vector<size_t>& cmos, const MemRef& data,
                                                   const std::string& access) {
    if (!data.inBytesView()) return std::nullopt;
    auto span = evalConst(data.sizes[0]);
    if (!span || *span <= 0) return std::nullopt;
    const std::string of = " of the " + std::to_string(*span) + " bytes " + access;
    auto start = evalConst(data.offsets[0]);
    bool constantLines =
        std::all_of(cmos.begin(), cmos.end(), [&](size_t i) { return ops[i]->target.byteRange.has_value(); });
    if (start && constantLines) {
      std::vector<std::pair<int64_t, int64_t>> lines;
      for (size_t i : cmos) lines.push_back(*ops[i]->target.byteRange);
      std::sort(lines.begin(), lines.end());
      int64_t reached = *start;  // the data's bytes below this are covered
      for (const auto& [b, e] : lines)
        if (b <= reached) reached = std::max(reached, e);
      if (reached >= *start + *span) return std::nullopt;
      return "the " + std::to_string(lines.size()) + " single-line dccis covering it (the first here) hold " +
             std::to_string(lines.size() * kCacheLineBytes) + " bytes" + of + " (" +
             byteRangeText(std::make_pair(*start, *start + *span)) + "), none from byte " + std::to_string(reached) +
             " on";
    }
    if (cmos.size() == 1 && !numbering.inLoop(cmos.front()) && *span > kCacheLineBytes)
      return "the only dcci covering it is this single-line one, which holds one 64-byte line" + of;
    return std::nullopt;
  }

  static void checkPair(const Kernel& k, const std::vector<const Op*>& ops, const OpNumbering& numbering, size_t w,
                        size_t b, size_t r, const MemRef& data, const MemRef& read, RuleContext& ctx) {
    std::string name = describeBuffer(k, data);
    bool drain = ops::runsOffScalar(*ops[w]);
    Held publish = maintained(ops, numbering, w, b, w, data, true, drain, ctx.proofs());
    std::string wrote = "'" + ops[w]->name + "' writes " + name + ", which is read after the soft barrier";
    reportSide(ctx, publish, ops[w]->loc, wrote + ", and its lines are published before the barrier",
               wrote + ", but the lines are not published before it (" +
                   (drain ? "pipe_barrier(PIPE_ALL), then " : "") +
                   "dcci(..., CACHELINE_OUT) of the written lines, then dsb(DSB_DDR)): the barrier only maintains its "
                   "own counter",
               "the writeback walk", ops[b]->loc, {ops[r]->loc, "the read on the other side"});
    Held acquire = maintained(ops, numbering, b, r, r, read, false, false, ctx.proofs());
    std::string reads = "'" + ops[r]->name + "' reads " + name + " after the soft barrier";
    reportSide(ctx, acquire, ops[r]->loc, reads + ", and its lines are invalidated before it",
               reads +
                   " without invalidating its lines first (dcci of the lines to read, then dsb(DSB_DDR)): it can "
                   "read a stale cached copy",
               "the invalidating walk", ops[b]->loc, {ops[w]->loc, "the write before the barrier"});
  }

  // One side's finding: `unknown` with the walk shown, or an error with what the CMOs held.
  static void reportSide(RuleContext& ctx, const Held& h, const SourceLoc& at, const std::string& unknownText,
                         const std::string& missedText, const std::string& walk, const SourceLoc& barrier,
                         const FindingNote& other) {
    if (h.kind == Held::Kind::All) return;
    if (h.kind == Held::Kind::Unknown) {
      Finding* f = ctx.reportVerdict(Verdict::unknown(h.why), at, unknownText);
      f->notes.push_back({h.cmo->loc, walk});
      f->notes.push_back({barrier, "the barrier"});
      return;
    }
    Finding& f = ctx.report(at, missedText);
    if (h.cmo) f.notes.push_back({h.cmo->loc, h.why});
    f.notes.push_back({barrier, "the barrier"});
    f.notes.push_back(other);
  }
};

}  // namespace

std::unique_ptr<Rule> makeBarrierDataVisibility() {
  return std::make_unique<BarrierDataVisibility>();
}

}  // namespace ptov
