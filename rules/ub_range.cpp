// ub-range: tiles placed at constant addresses (alloc_tile addr= / tassign) stay inside their
// space's capacity for the arch, are aligned, and no tile overwrites bytes of another whose
// value is still to be read (analysis/tile_values.h).
// PTOAS checks alignment only; capacity and overlap of level-3 addresses are unchecked upstream.
#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "analysis/tile_values.h"

namespace ptov {
namespace {

struct SpaceLimits {
  int64_t capacity;
  int64_t alignment;
};

// Capacities from PTOAS PTOPlanMemoryModern (its per-arch sizes); alignment from its verifier.
std::optional<SpaceLimits> limitsFor(MemSpace space, const std::string& arch) {
  bool a5 = arch == "a5";
  switch (space) {
    case MemSpace::UB:
    case MemSpace::Scaling: return SpaceLimits{a5 ? 253952 : 196608, 32};
    case MemSpace::L1: return SpaceLimits{524288, 32};
    case MemSpace::Bias: return SpaceLimits{65536, 32};
    case MemSpace::L0A:
    case MemSpace::L0B: return SpaceLimits{65536, 512};
    case MemSpace::L0C: return SpaceLimits{a5 ? 262144 : 131072, 512};
    default: return std::nullopt;
  }
}

class UbRange : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"ub-range", "ub", Severity::Error,
                            "constant tile address out of capacity, misaligned, or overwriting a tile whose value is still to be read",
                            {"PTOAS PTO.cpp verifyConstantLocalAddress (alignment only)",
                             "PTOAS PTOPlanMemoryModern capacities (UB 192 KiB a2a3, 248 KiB a5)"},
        // What it does not check: its page's section of that name.
        {"A view moved only partly off its tile reads a value that is still partly read, and is not seen.",
         "Non-constant addresses are not checked: the front end notes them as \"not checked\"."}};
    return i;
  }

  bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings&) const override {
    return t.hasAny({OpKind::TileAlloc, OpKind::TileAssign}) || (k.cpp && !k.cpp->ubScratch.empty());
  }
  bool affectedBy(ModelGap::Kind kind) const override {
    return gapHidesOps(kind) || kind == ModelGap::Kind::UnknownOp;
  }

  // Capacities per address space (the arch's by default) and where pto-isa's temp region begins.
  std::vector<RuleOption> options() const override {
    std::vector<RuleOption> out;
    for (MemSpace space : {MemSpace::UB, MemSpace::L1, MemSpace::L0A, MemSpace::L0B, MemSpace::L0C, MemSpace::Bias})
      out.push_back(integerOption(std::string(memSpaceName(space)) + "-bytes",
                                  {{"", limitsFor(space, "a2a3")->capacity}, {"a5", limitsFor(space, "a5")->capacity}},
                                  std::string("capacity of ") + memSpaceName(space) + " in bytes"));
    out.push_back(integerOption(
        "pto-temp-offset", {{"", 184 * 1024}, {"a5", 253952 - 8192}},
        "UB byte where pto::TMP_UB_OFFSET's temp region begins (a soft barrier's scratch must end below it)"));
    return out;
  }

  // C++ (the DeepSeek-V4 MoE fusion write-up §4.5): a hand-placed UB scratch (a soft barrier's)
  // lies above every generated body's TASSIGN high-water, below pto-isa's temp region, and on a 64-byte boundary.
  static void checkScratch(const Kernel& k, RuleContext& ctx) {
    if (!k.cpp) return;
    int64_t temp = ctx.option("pto-temp-offset");
    for (const auto& s : k.cpp->ubScratch) {
      std::string where = "UB scratch '" + s.name + "' [" + std::to_string(s.addr) + ", " +
                          std::to_string(s.addr + s.bytes) + ")";
      if (s.addr % 64 != 0) ctx.report(s.loc, where + " is not 64-byte aligned");
      if (s.addr + s.bytes > temp)
        ctx.report(s.loc, where + " enters the PTO temp region at " + std::to_string(temp) +
                              " (pto::TMP_UB_OFFSET), which pto-isa ops use as scratch");
      for (const auto& hw : k.cpp->highWater)
        if (hw.end > s.addr) {
          Finding& f = ctx.report(s.loc, where + " lies below the UB high-water of '" + hw.body + "' (" +
                                             std::to_string(hw.end) + " bytes): the body's tiles overwrite it");
          f.notes.push_back({hw.loc, "the TASSIGN that reaches " + std::to_string(hw.end)});
        }
    }
  }

  // PTOAS's level-3 placements only: HIVM pointer_cast offsets come from its own planner
  // (and are symbolic slot numbers in its lit tests), with its own alignment rules.
  static bool checkedPlacement(const Op& op, const std::string& arch) {
    if (op.kind != OpKind::TileAlloc && op.kind != OpKind::TileAssign) return false;
    return (op.dialect == Dialect::Pto || op.dialect == Dialect::Cpp) && limitsFor(op.tileSpace, arch).has_value();
  }

  static std::string rangeText(const ByteRange& r) {
    return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
  }

  static std::string tileName(const MemRef& m) { return m.tileView.empty() ? m.value : m.tileView + " (a view of " + m.value + ")"; }
  static std::string handleName(const MemRef& m) { return m.tileView.empty() ? m.value : m.tileView; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    checkScratch(k, ctx);
    forEachOp(*k.body, [&](const Op& op) {
      if (!checkedPlacement(op, k.arch)) return;
      auto lim = limitsFor(op.tileSpace, k.arch);
      // The capacity option: the arch's capacity unless configured (.ptoverify.yaml).
      const MemSpace sized = op.tileSpace == MemSpace::Scaling ? MemSpace::UB : op.tileSpace;
      lim->capacity = ctx.option(std::string(memSpaceName(sized)) + "-bytes");
      // A constant address, or each of the constants it can be (an scf.if yielding addresses).
      std::vector<int64_t> addrs = op.tileAddr ? std::vector<int64_t>{*op.tileAddr} : op.tileAddrChoices;
      for (int64_t addr : addrs) {
        int64_t end = addr + op.tileBytes;
        std::string where = "tile " + op.tileValue + " at " + std::to_string(addr) + " (" +
                            std::to_string(op.tileBytes) + " bytes) in " + memSpaceName(op.tileSpace);
        if (addr < 0 || end > lim->capacity)
          ctx.report(op.loc, where + " ends at " + std::to_string(end) + ", beyond the " +
                                 std::to_string(lim->capacity) + "-byte capacity of " + memSpaceName(op.tileSpace) + " on " + k.arch);
        if (addr % lim->alignment != 0)
          ctx.report(op.loc, where + " is not aligned to " + std::to_string(lim->alignment) + " bytes");
      }
    });
    reportClashes(k, ctx);
  }

  // The placement of the two that the finding is not at.
  static void addPlacementNote(Finding& f, const TileClash& c, const MemRef& read, const MemRef& written) {
    bool underLater = c.placedLater == c.placedUnder;
    f.notes.push_back({underLater ? c.placedOver->loc : c.placedUnder->loc,
                       (underLater ? written.value : read.value) + " is placed here"});
  }

  // A value written into a tile that no op reads (analysis/tile_values.h): a warning, since the
  // usual cause is a tile or view placed on the wrong bytes, so its reader reads something else.
  static void reportLostValue(const LostValue& lost, RuleContext& ctx) {
    ctx.report(Severity::Warning, lost.write->loc,
               "'" + lost.write->name + "' writes " + tileName(*lost.written) + " " + rangeText(lost.bytes) +
                   " and no op reads that value before " +
                   (lost.overwritten ? "its bytes are written again" : "the kernel ends") +
                   ": a lost value (is a tile or a view of it placed on the wrong bytes?)");
  }

  // A core view is one core kind's code of a file compiled for both: what it writes into the
  // other core's buffers (a5's vector core moving UB into L1, the cube core moving L1 or L0C into
  // UB) is for the other view to read, which this view does not see.
  static bool otherViewReads(const Kernel& k, MemSpace written) {
    if (k.view == CoreView::Aiv) return written != MemSpace::UB;
    if (k.view == CoreView::Aic) return written == MemSpace::UB;
    return false;
  }

  // Tiles that share bytes clash by value (analysis/tile_values.h): a write of one while the
  // other's value is still to be read, or an op reading bytes it overwrites at another offset.
  static void reportClashes(const Kernel& k, RuleContext& ctx) {
    const Flow& flow = ctx.proofs().flow();
    TileClashes found = tileClashes(flow, [&](const Op& op) { return checkedPlacement(op, k.arch); }, k.gaps.empty());
    for (const LostValue& lost : found.lost)
      if (!otherViewReads(k, lost.written->space)) reportLostValue(lost, ctx);
    for (const TileClash& c : found.clashes) {
      const std::string over = tileName(*c.written), under = tileName(*c.read);
      const std::string space = memSpaceName(c.placedOver->tileSpace);
      if (!c.laterRead && c.element >= 0) {
        Finding& f = ctx.report(c.placedLater->loc,
                                "'" + c.write->name + "' writes element " + std::to_string(c.element) + " of " + over +
                                    " " + rangeText(c.writtenBytes) + " over element " + std::to_string(c.readElement) +
                                    " of " + under + " " + rangeText(c.readBytes) + " in " + space +
                                    ": walking the elements in order, it overwrites input it has not read yet");
        f.notes.push_back({c.write->loc, "the op that reads and overwrites the shared bytes"});
        addPlacementNote(f, c, *c.read, *c.written);
        continue;
      }
      if (!c.laterRead) {
        Finding& f = ctx.report(c.placedLater->loc, "'" + c.write->name + "' reads " + under + " " + rangeText(c.readBytes) +
                                                       " and writes " + over + " " + rangeText(c.writtenBytes) + " in " +
                                                       space + ": the ranges overlap at different offsets, so it "
                                                       "overwrites input it has not read yet");
        f.notes.push_back({c.write->loc, "the op that reads and overwrites the shared bytes"});
        addPlacementNote(f, c, *c.read, *c.written);
        continue;
      }
      std::string message = "tile " + over + " " + rangeText(c.writtenBytes) + " shares bytes with tile " + under + " " +
                            rangeText(c.readBytes) + " in " + space + ", and is written while " + handleName(*c.read) +
                            "'s value is still to be read";
      if (!c.exact) {
        message = "tile " + over + " may share bytes with tile " + under + " in " + space + " (a view at an offset " +
                  "that is not a constant lies somewhere in its tile), and is written while " + handleName(*c.read) +
                  "'s value is still to be read: not decided";
      }
      Finding& f = ctx.report(c.placedLater->loc, message);
      f.unknown = !c.exact;
      const std::string why = c.readTogether ? "" : " (not a new version of it: those bytes, computed from it)";
      f.notes.push_back({c.write->loc, "'" + c.write->name + "' writes " + handleName(*c.written) + " here, over bytes of " +
                                           handleName(*c.read) + why});
      f.notes.push_back({c.laterRead->loc, "'" + c.laterRead->name + "' reads " + handleName(*c.read) + "'s earlier value here" +
                                               (c.readTogether ? ", beside " + handleName(*c.written) + "'s: it wants both" : "")});
      addPlacementNote(f, c, *c.read, *c.written);
    }
    if (!found.notChecked.empty()) {
      Finding& f = ctx.report(k.loc, "tile overlaps not checked: " + found.notChecked);
      f.unknown = true;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> makeUbRange() { return std::make_unique<UbRange>(); }

}  // namespace ptov
