// ub-range: tiles placed at constant addresses (alloc_tile addr= / tassign) stay inside their
// space's capacity for the arch, are aligned, and no two overlap while both are live.
// PTOAS checks alignment only; capacity and overlap of level-3 addresses are unchecked upstream.
#include <algorithm>
#include <map>

#include "analyzer/model/cpp_facts.h"
#include "rules/model_queries.h"
#include "rules/rule.h"

namespace ptov {
namespace {

struct SpaceLimits {
  int64_t capacity;
  int64_t alignment;
};

// Capacities from PTOAS PTOPlanMemoryModern (reference notes §6); alignment from its verifier.
std::optional<SpaceLimits> limitsFor(const std::string& space, const std::string& arch) {
  bool a5 = arch == "a5";
  if (space == "ub" || space == "scaling") return SpaceLimits{a5 ? 253952 : 196608, 32};
  if (space == "l1") return SpaceLimits{524288, 32};
  if (space == "bias") return SpaceLimits{65536, 32};
  if (space == "l0a" || space == "l0b") return SpaceLimits{65536, 512};
  if (space == "l0c") return SpaceLimits{a5 ? 262144 : 131072, 512};
  return std::nullopt;
}

struct PlacedTile {
  const Op* op;
  int defIndex;
  int lastUse;
  int64_t begin, end;  // [begin, end) bytes
};

class UbRange : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"ub-range", "ub", Severity::Error,
                            "constant tile address out of capacity, misaligned, or overlapping a live tile",
                            {"PTOAS PTO.cpp verifyConstantLocalAddress (alignment only)",
                             "PTOAS PTOPlanMemoryModern capacities (UB 192 KiB a2a3, 248 KiB a5)"}};
    return i;
  }

  // Capacity overrides per address space, in bytes.
  std::vector<std::string> options() const override {
    return {"ub-bytes", "l1-bytes", "l0a-bytes", "l0b-bytes", "l0c-bytes", "bias-bytes", "pto-temp-offset"};
  }

  // C++ (seed 004 §4.5): a hand-placed UB scratch (a soft barrier's) lies above every generated
  // body's TASSIGN high-water, below pto-isa's temp region, and on a 64-byte boundary.
  static void checkScratch(const Kernel& k, RuleContext& ctx) {
    if (!k.cpp) return;
    int64_t temp = ctx.option("pto-temp-offset").value_or(k.arch == "a5" ? 253952 - 8192 : 184 * 1024);
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

  // Is `view`'s first value a window of `base` copied onto the very bytes it came from
  // (TEXTRACT(view, base, 0, 64) with view placed 64 elements into base)? Then the two are one
  // buffer, as same-start views are.
  static bool inPlaceWindow(const OpNumbering& num, const PlacedTile& base, const PlacedTile& view) {
    if (view.end > base.end) return false;
    // Every write of `view` while `base` is still live must be such a copy.
    bool copied = false;
    int until = std::min(view.lastUse, base.lastUse);
    for (int i = view.defIndex + 1; i <= until && i < static_cast<int>(num.ops().size()); ++i) {
      const Op& op = *num.ops()[i];
      bool writesView = false;
      for (const MemRef& w : op.writes) writesView |= w.value == view.op->tileValue;
      if (!writesView) continue;
      bool inPlace = op.sourceWindowByte && !op.reads.empty() && op.reads.front().value == base.op->tileValue &&
                     view.begin == base.begin + *op.sourceWindowByte;
      if (!inPlace) return false;
      copied = true;
    }
    return copied;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    checkScratch(k, ctx);
    OpNumbering num(*k.body);
    std::vector<PlacedTile> tiles;
    for (const Op* op : num.ops()) {
      if (op->kind != OpKind::TileAlloc && op->kind != OpKind::TileAssign) continue;
      // PTOAS's level-3 placements only: HIVM pointer_cast offsets come from its own planner
      // (and are symbolic slot numbers in its lit tests), with its own alignment rules.
      if (op->name.rfind("pto.", 0) != 0 && op->name != "TASSIGN") continue;
      auto lim = limitsFor(op->tileSpace, k.arch);
      if (!lim) continue;
      // A configured capacity (rule options, .ptoverify.yaml) replaces the arch default.
      std::string space = op->tileSpace == "scaling" ? "ub" : op->tileSpace;
      if (auto bytes = ctx.option(space + "-bytes")) lim->capacity = *bytes;
      // A constant address, or each of the constants it can be (an scf.if yielding addresses).
      std::vector<int64_t> addrs = op->tileAddr ? std::vector<int64_t>{*op->tileAddr} : op->tileAddrChoices;
      const int def = num.index(op);
      const int last = addrs.empty() || op->tileBytes <= 0 ? def : num.lastUse(op->tileValue, def);
      for (int64_t addr : addrs) {
        int64_t end = addr + op->tileBytes;
        std::string where = "tile " + op->tileValue + " at " + std::to_string(addr) + " (" +
                            std::to_string(op->tileBytes) + " bytes) in " + op->tileSpace;
        if (addr < 0 || end > lim->capacity)
          ctx.report(op->loc, where + " ends at " + std::to_string(end) + ", beyond the " +
                                  std::to_string(lim->capacity) + "-byte capacity of " + op->tileSpace + " on " + k.arch);
        if (addr % lim->alignment != 0)
          ctx.report(op->loc, where + " is not aligned to " + std::to_string(lim->alignment) + " bytes");
        if (op->tileBytes > 0) tiles.push_back({op, def, last, addr, end});
      }
    }
    for (size_t i = 0; i < tiles.size(); ++i)
      for (size_t j = 0; j < i; ++j) {
        const PlacedTile& a = tiles[j];
        const PlacedTile& b = tiles[i];
        if (a.op == b.op || a.op->tileSpace != b.op->tileSpace) continue;
        bool addrOverlap = a.begin < b.end && b.begin < a.end;
        bool liveOverlap = a.defIndex <= b.lastUse && b.defIndex <= a.lastUse;
        // Tiles that start at the same address are views of one buffer (level-3 in-place ops,
        // row/col-major views of the same bytes); only a partial overlap is a placement bug.
        bool alias = a.begin == b.begin || inPlaceWindow(num, a, b) || inPlaceWindow(num, b, a);
        if (!addrOverlap || !liveOverlap || alias) continue;
        Finding& f = ctx.report(b.op->loc, "tile " + b.op->tileValue + " [" + std::to_string(b.begin) + ", " +
                                               std::to_string(b.end) + ") overlaps live tile " + a.op->tileValue +
                                               " [" + std::to_string(a.begin) + ", " + std::to_string(a.end) + ") in " +
                                               b.op->tileSpace);
        f.notes.push_back({a.op->loc, "the overlapping tile is placed here and still used later"});
      }
  }
};

}  // namespace

std::unique_ptr<Rule> makeUbRange() { return std::make_unique<UbRange>(); }

}  // namespace ptov
