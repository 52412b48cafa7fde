#include "analysis/tile_values.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace ptov {
namespace {

// The analysis tracks one bit per (read, flow node); past this many 64-bit words it is skipped
// and says so rather than take the machine's memory.
constexpr size_t kMaxPendingWords = size_t(1) << 22;
// Placement pairs compared when looking for tiles that share bytes.
constexpr size_t kMaxPairSteps = size_t(20) * 1000 * 1000;

struct Bits {
  std::vector<uint64_t> w;
  explicit Bits(size_t n = 0) : w((n + 63) / 64, 0) {}
  bool test(size_t i) const { return (w[i / 64] >> (i % 64)) & 1; }
  void set(size_t i) { w[i / 64] |= uint64_t(1) << (i % 64); }
  void clear(size_t i) { w[i / 64] &= ~(uint64_t(1) << (i % 64)); }
  bool join(const Bits& o) {
    bool changed = false;
    for (size_t i = 0; i < w.size(); ++i) {
      uint64_t merged = w[i] | o.w[i];
      changed |= merged != w[i];
      w[i] = merged;
    }
    return changed;
  }
};

std::vector<size_t> setBits(const Bits& b) {
  std::vector<size_t> out;
  for (size_t i = 0; i < b.w.size(); ++i)
    for (uint64_t word = b.w[i]; word; word &= word - 1) out.push_back(i * 64 + __builtin_ctzll(word));
  return out;
}

// Backward "may" liveness: per flow node, the bits live on exit from it, where a node's entry
// is its exit minus `kill` plus `gen` (bits of `width`).
std::vector<Bits> liveAfter(const Flow& flow, size_t width, const std::map<int, Bits>& gen,
                            const std::map<int, Bits>& kill) {
  const size_t nodes = flow.nodes.size();
  std::vector<Bits> in(nodes, Bits(width)), after(nodes, Bits(width));
  std::deque<int> work;
  std::vector<bool> queued(nodes, true);
  for (size_t n = nodes; n-- > 0;) work.push_back(static_cast<int>(n));
  while (!work.empty()) {
    int n = work.front();
    work.pop_front();
    queued[n] = false;
    Bits out(width);
    for (int s : flow.nodes[n].succ) out.join(in[s]);
    after[n] = out;
    if (auto k = kill.find(n); k != kill.end())
      for (size_t i = 0; i < out.w.size(); ++i) out.w[i] &= ~k->second.w[i];
    if (auto g = gen.find(n); g != gen.end()) out.join(g->second);
    if (in[n].join(out))
      for (int p : flow.nodes[n].pred)
        if (!queued[p]) {
          queued[p] = true;
          work.push_back(p);
        }
  }
  return after;
}

struct Placement {
  const Op* op;
  std::vector<ByteRange> ranges;  // one per address the tile can have
};

struct Access {
  int node;
  const MemRef* ref;
  int placement;
  int root;  // index into the involved roots
  ByteRange bytes;
  bool exact;  // the bytes are known, not only the root's bound
  bool write;
  ByteRange placed;  // the placement's bytes this access is in
};

// The elements of one tile access in the order an elementwise op walks them: `lines` rows of
// `perLine` elements of `elem` bytes, `stride` bytes apart, from `base` (MemRef::elementBytes).
struct ElementWalk {
  int64_t base, lines, perLine, stride, elem;
  int64_t count() const { return lines * perLine; }
  int64_t at(int64_t k) const { return base + (k / perLine) * stride + (k % perLine) * elem; }
  // How many elements start before `address` (their starts only grow).
  int64_t startingBefore(int64_t address) const {
    int64_t lo = 0, hi = count();
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (at(mid) < address) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
};

constexpr int64_t kMaxWalkedElements = int64_t(1) << 20;

std::optional<ElementWalk> elementWalk(const Access& a) {
  const MemRef& m = *a.ref;
  int64_t row = 0;
  if (m.elementBytes <= 0 || m.rowElements <= 0 || !a.exact || __builtin_mul_overflow(m.rowElements, m.elementBytes, &row))
    return std::nullopt;
  const int64_t elem = m.elementBytes;
  if (m.tileView.empty()) {
    int64_t bytes = a.placed.end - a.placed.begin;
    if (bytes % row != 0) return std::nullopt;
    return ElementWalk{a.placed.begin, bytes / row, m.rowElements, row, elem};
  }
  if (!m.tileViewOffset || m.tileViewBytes <= 0) return std::nullopt;
  const int64_t base = a.placed.begin + *m.tileViewOffset;
  if (m.tileViewLineBytes > 0 && m.tileViewLines > 1) {
    if (m.tileViewLineBytes != row) return std::nullopt;
    return ElementWalk{base, m.tileViewLines, m.rowElements, m.tileViewStride, elem};
  }
  if (m.tileViewBytes % row != 0) return std::nullopt;
  return ElementWalk{base, m.tileViewBytes / row, m.rowElements, row, elem};
}

// The first output element that overwrites an input element the op reads after it: (output,
// input) indices; nullopt when none does. Only for the same shape (an elementwise op).
std::optional<std::pair<int64_t, int64_t>> writesAhead(const ElementWalk& in, const ElementWalk& out) {
  for (int64_t k = 0; k < out.count(); ++k) {
    const int64_t from = out.at(k), to = from + out.elem;
    int64_t last = in.startingBefore(to) - 1;  // the last input element starting before `to`
    if (last > k && in.at(last) + in.elem > from) return std::make_pair(k, last);
  }
  return std::nullopt;
}

class TileValueAnalysis {
 public:
  TileValueAnalysis(const Flow& flow, const std::function<bool(const Op&)>& placed) : flow_(flow), placed_(placed) {}

  TileClashes run(bool lostValuesToo) {
    collectPlacements();
    if (!findSharedRoots()) return std::move(out_);
    reach_ = reachingPlacements();
    if (!collectSpans()) {
      out_.notChecked = valuesPastLimit();
      return std::move(out_);
    }
    if (lostValuesToo) lostValues();
    if (roots_.empty()) return std::move(out_);
    collectAccesses();
    inOpOverlaps();
    overwrittenValues();
    for (auto& [later, clash] : byLater_) out_.clashes.push_back(clash);
    std::sort(out_.clashes.begin(), out_.clashes.end(), [&](const TileClash& a, const TileClash& b) {
      return order_.at(a.placedLater) != order_.at(b.placedLater) ? order_.at(a.placedLater) < order_.at(b.placedLater)
                                                                  : order_.at(a.write) < order_.at(b.write);
    });
    return std::move(out_);
  }

 private:
  void collectPlacements() {
    for (size_t n = 0; n < flow_.nodes.size(); ++n) {
      const Op* op = flow_.nodes[n].op;
      if (!op) continue;
      order_.emplace(op, static_cast<int>(n));
      if ((op->kind != OpKind::TileAlloc && op->kind != OpKind::TileAssign) || op->tileBytes <= 0 || !placed_(*op))
        continue;
      std::vector<int64_t> addrs = op->tileAddr ? std::vector<int64_t>{*op->tileAddr} : op->tileAddrChoices;
      Placement p{op, {}};
      for (int64_t a : addrs) {
        int64_t end = 0;
        if (!__builtin_add_overflow(a, op->tileBytes, &end)) p.ranges.push_back({a, end});
      }
      if (p.ranges.empty()) continue;
      placementAt_[static_cast<int>(n)] = static_cast<int>(placements_.size());
      placementsOf_[op->tileValue].push_back(static_cast<int>(placements_.size()));
      placements_.push_back(std::move(p));
    }
  }

  // The roots that share bytes with another root in the same space: only their values can be
  // overwritten. Sorted by start, so each tile is compared with those that begin inside it.
  bool findSharedRoots() {
    struct Item {
      MemSpace space;
      int64_t begin, end;
      const std::string* root;
    };
    std::vector<Item> items;
    for (const auto& p : placements_)
      for (const auto& r : p.ranges) items.push_back({p.op->tileSpace, r.begin, r.end, &p.op->tileValue});
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.space != b.space ? a.space < b.space : a.begin < b.begin;
    });
    std::set<std::string> shared;
    size_t steps = 0;
    for (size_t i = 0; i < items.size(); ++i)
      for (size_t j = i + 1; j < items.size() && items[j].space == items[i].space && items[j].begin < items[i].end; ++j) {
        if (++steps > kMaxPairSteps) {
          out_.notChecked = "over " + std::to_string(kMaxPairSteps) + " pairs of tile placements share bytes";
          return false;
        }
        if (*items[i].root == *items[j].root) continue;
        shared.insert(*items[i].root);
        shared.insert(*items[j].root);
      }
    for (const auto& r : shared) {
      rootIndex_[r] = static_cast<int>(roots_.size());
      roots_.push_back(r);
    }
    return true;
  }

  // Which placement each access of a tile reaches: the tile's only one, or (a C++ tile
  // TASSIGNed several times) those that reach the access along the flow graph.
  std::vector<std::vector<int>> reachingPlacements() {
    std::vector<std::vector<int>> none;
    std::map<std::string, int> multi;  // roots placed by more than one op
    for (const auto& [r, ps] : placementsOf_)
      if (ps.size() > 1) multi.emplace(r, static_cast<int>(multi.size()));
    if (multi.empty()) return none;
    // State: per multi-placed root, a bit per placement op (placement index).
    Bits entry(placements_.size());
    auto in = solveForward(flow_, entry, [&](const FlowNode& n, Bits& s) {
      auto p = placementAt_.find(static_cast<int>(&n - flow_.nodes.data()));
      if (p == placementAt_.end() || !multi.count(placements_[p->second].op->tileValue)) return;
      for (int other : placementsOf_[placements_[p->second].op->tileValue]) s.clear(other);
      s.set(p->second);
    });
    std::vector<std::vector<int>> reach(flow_.nodes.size());
    for (size_t n = 0; n < flow_.nodes.size(); ++n) {
      if (in[n].w.empty()) continue;
      for (const auto& [root, k] : multi)
        for (int p : placementsOf_[root])
          if (in[n].test(p)) reach[n].push_back(p);
    }
    return reach;
  }

  // The bytes a placed tile's operand touches at flow node `node`: one piece per placement of
  // its tile that reaches there (its only one, or, for a C++ tile TASSIGNed several times, those
  // reaching along the flow graph), per address that placement can have, and per line of a
  // strided view at a known offset. `known` is false when the view's place in its tile is not
  // known (the piece is then the whole placement); `addresses` counts the (placement, address)
  // choices.
  struct PlacedBytes {
    struct Piece {
      int placement;
      ByteRange placed, bytes;
    };
    std::vector<Piece> pieces;
    bool known = false;
    size_t addresses = 0;
  };

  PlacedBytes placedBytes(const MemRef& ref, const std::vector<int>& mine, int node) const {
    std::vector<int> which;
    if (mine.size() == 1) which = mine;
    else if (!reach_.empty())
      for (int p : reach_[node])
        if (std::find(mine.begin(), mine.end(), p) != mine.end()) which.push_back(p);
    PlacedBytes out;
    out.known = ref.tileView.empty() || (ref.tileViewOffset && ref.tileViewBytes > 0);
    for (int p : which)
      for (const ByteRange& range : placements_[p].ranges) {
        ++out.addresses;
        if (ref.tileView.empty() || !out.known) {
          out.pieces.push_back({p, range, range});
          continue;
        }
        for (const auto& [b, e] : ref.tileViewBytesAt(*ref.tileViewOffset))
          out.pieces.push_back({p, range, {range.begin + b, range.begin + e}});
      }
    return out;
  }

  void collectAccesses() {
    for (size_t n = 0; n < flow_.nodes.size(); ++n) {
      const Op* op = flow_.nodes[n].op;
      if (!op) continue;
      auto add = [&](const MemRef& ref, bool write) {
        if (ref.space == MemSpace::GM) return;
        auto root = rootIndex_.find(ref.value);
        if (root == rootIndex_.end()) return;
        PlacedBytes at = placedBytes(ref, placementsOf_[ref.value], static_cast<int>(n));
        for (const auto& piece : at.pieces)
          accesses_.push_back(
              {static_cast<int>(n), &ref, piece.placement, root->second, piece.bytes, at.known, write, piece.placed});
      };
      size_t first = accesses_.size();
      for (const MemRef& r : op->reads) add(r, false);
      for (const MemRef& w : op->writes) add(w, true);
      if (accesses_.size() > first) accessesAt_[static_cast<int>(n)] = {first, accesses_.size()};
    }
  }

  // One clash per tile placed over others (the first found, an exact one before a bound), shown
  // at the placement that comes later: a kernel of n tiles on one address gives n findings, not
  // n^2.
  void keep(TileClash c) {
    bool overFirst = order_.at(c.placedOver) < order_.at(c.placedUnder);
    c.placedLater = overFirst ? c.placedUnder : c.placedOver;
    auto it = byLater_.find(c.placedLater);
    if (it == byLater_.end()) byLater_.emplace(c.placedLater, c);
    else if (!it->second.exact && c.exact) it->second = c;
  }

  TileClash clashOf(const Access& w, const Access& r, const Op* laterRead) const {
    TileClash c;
    c.placedOver = placements_[w.placement].op;
    c.placedUnder = placements_[r.placement].op;
    c.write = flow_.nodes[w.node].op;
    c.laterRead = laterRead;
    c.written = w.ref;
    c.read = r.ref;
    c.writtenBytes = w.bytes;
    c.readBytes = r.bytes;
    c.exact = w.exact && r.exact;
    return c;
  }

  // An elementwise op over operands of one shape walks their elements in step: it overwrites
  // input it has not read yet where an output element lands on a later input element (a widening
  // tcvt onto its own source), not where it lands on one already read (a compact copy of a
  // strided slice written from the slice's root start). Decided once per pair of operands;
  // nullopt when their element walks are not known or differ in shape.
  std::optional<bool> elementwiseClash(const Access& r, const Access& w) {
    auto in = elementWalk(r), out = elementWalk(w);
    if (!in || !out || in->lines != out->lines || in->perLine != out->perLine || in->count() > kMaxWalkedElements)
      return std::nullopt;
    if (!decidedPairs_.insert({r.ref, w.ref, r.placed.begin, w.placed.begin}).second) return true;  // said once
    auto ahead = writesAhead(*in, *out);
    if (!ahead) return false;
    TileClash c = clashOf(w, r, nullptr);
    c.writtenBytes = {out->at(ahead->first), out->at(ahead->first) + out->elem};
    c.readBytes = {in->at(ahead->second), in->at(ahead->second) + in->elem};
    c.element = ahead->first;
    c.readElement = ahead->second;
    c.exact = true;
    keep(c);
    return true;
  }

  // An op that reads bytes it also writes at another offset overwrites input it has not read
  // yet (a vector op walks its operands in step). The same start is an in-place op; a window
  // copied onto the bytes it came from (TEXTRACT into base + window) is a view.
  // A view at the loop counters is decided per iteration here: one op execution reads and
  // writes in the same iteration, so each of the view's offsets is a case of its own.
  // Operands whose elements are known are decided per element (elementwiseClash) instead.
  void inOpOverlaps() {
    auto cases = [](const Access& a) {
      std::vector<ByteRange> out;
      if (a.exact) out.push_back(a.bytes);
      else
        for (int64_t off : a.ref->tileViewOffsetChoices)
          for (const auto& [b, e] : a.ref->tileViewBytesAt(off)) out.push_back({a.bytes.begin + b, a.bytes.begin + e});
      return out;
    };
    for (const auto& [node, span] : accessesAt_) {
      const Op& op = *flow_.nodes[node].op;
      for (size_t i = span.first; i < span.second; ++i) {
        const Access& r = accesses_[i];
        if (r.write) continue;
        for (size_t j = span.first; j < span.second; ++j) {
          const Access& w = accesses_[j];
          if (!w.write || w.ref->space != r.ref->space || (!r.exact && !w.exact)) continue;
          if (!r.placed.overlaps(w.placed)) continue;
          if (elementwiseClash(r, w)) continue;
          for (const ByteRange& rb : cases(r))
            for (const ByteRange& wb : cases(w)) {
              if (!wb.overlaps(rb) || wb.begin == rb.begin) continue;
              bool window = op.sourceWindowByte && !op.reads.empty() && r.ref == &op.reads.front() &&
                            wb.begin == rb.begin + *op.sourceWindowByte;
              if (window) continue;
              TileClash c = clashOf(w, r, nullptr);
              c.writtenBytes = wb;
              c.readBytes = rb;
              c.exact = true;
              keep(c);
            }
        }
      }
    }
  }

  // The bytes one operand covers, for the value lineage: a range in its space, or in a space of
  // its own for a tile without a constant place; exact when they are the bytes it touches.
  struct Span {
    int space;
    ByteRange bytes;
    bool exact;
    int root;  // the shared root it goes through; -1 for another tile
    const MemRef* ref;
  };
  static constexpr int kUnplacedSpaces = 1000;  // spaces from here on: one per unplaced tile

  void addSpans(const MemRef& ref, int node, std::vector<Span>& out, std::map<std::string, int>& unplaced) {
    auto root = rootIndex_.find(ref.value);
    const int r = root == rootIndex_.end() ? -1 : root->second;
    auto placed = placementsOf_.find(ref.value);
    if (placed == placementsOf_.end()) {
      const int space = kUnplacedSpaces + unplaced.emplace(ref.value, static_cast<int>(unplaced.size())).first->second;
      out.push_back({space, {0, 1}, ref.tileView.empty(), r, &ref});
      return;
    }
    // A write at one of several addresses is no strong update.
    PlacedBytes at = placedBytes(ref, placed->second, node);
    for (const auto& piece : at.pieces)
      out.push_back({static_cast<int>(placements_[piece.placement].op->tileSpace), piece.bytes,
                     at.known && at.addresses == 1, r, &ref});
  }

  std::string valuesPastLimit() const {
    return "its values: the bytes written over " + std::to_string(flow_.nodes.size()) +
           " flow nodes are past the analysis limit";
  }

  // Every tile operand's bytes, per flow node, cut into segments: between consecutive span
  // boundaries of a space, so every span is a run of whole segments.
  bool collectSpans() {
    std::map<std::string, int> unplaced;
    std::map<int, std::set<int64_t>> cuts;  // per space
    for (size_t n = 0; n < flow_.nodes.size(); ++n) {
      const Op* op = flow_.nodes[n].op;
      if (!op || (op->reads.empty() && op->writes.empty())) continue;
      NodeSpans& mine = spans_[static_cast<int>(n)];
      for (const MemRef& m : op->reads)
        if (m.space != MemSpace::GM) addSpans(m, static_cast<int>(n), mine.reads, unplaced);
      for (const MemRef& m : op->writes)
        if (m.space != MemSpace::GM) addSpans(m, static_cast<int>(n), mine.writes, unplaced);
      for (const auto* list : {&mine.reads, &mine.writes})
        for (const Span& sp : *list) cuts[sp.space].insert({sp.bytes.begin, sp.bytes.end});
    }
    for (const auto& [space, c] : cuts) {
      segmentBase_[space] = segments_;
      cutList_[space].assign(c.begin(), c.end());
      segments_ += c.size() - 1;
    }
    return flow_.nodes.size() * ((segments_ + 63) / 64) <= kMaxPendingWords;
  }

  std::pair<size_t, size_t> segmentsOf(const Span& sp) const {
    const std::vector<int64_t>& c = cutList_.at(sp.space);
    const size_t base = segmentBase_.at(sp.space);
    size_t from = std::lower_bound(c.begin(), c.end(), sp.bytes.begin) - c.begin();
    size_t to = std::lower_bound(c.begin(), c.end(), sp.bytes.end) - c.begin();
    return {base + from, base + to};
  }

  // A value written into a placed tile whose bytes no op reads, through any handle, before they
  // are overwritten or the kernel ends: a lost value (usually a tile or a view placed on the
  // wrong bytes, so the value its reader meant is elsewhere). Bytes live after each node come
  // from a backward pass over the segments; a write whose segments are not live lost them.
  // Only a write known to set every byte it covers retires the older value there (padding of a
  // partly valid tile keeps it). A read through a tile without a known place may read any byte
  // of its space, so no value there is called lost.
  void lostValues() {
    std::map<int, Bits> gen, kill;
    std::set<MemSpace> readAnywhere;
    for (const auto& [node, io] : spans_) {
      for (const Span& sp : io.reads) {
        if (sp.space >= kUnplacedSpaces) readAnywhere.insert(sp.ref->space);
        for (auto [seg, end] = segmentsOf(sp); seg < end; ++seg) gen.try_emplace(node, segments_).first->second.set(seg);
      }
      for (const Span& sp : io.writes)
        if (sp.exact && sp.ref->fullyValid)
          for (auto [seg, end] = segmentsOf(sp); seg < end; ++seg) kill.try_emplace(node, segments_).first->second.set(seg);
    }
    std::vector<Bits> after = liveAfter(flow_, segments_, gen, kill);
    std::vector<Bits> writtenAfter = liveAfter(flow_, segments_, kill, {});
    for (const auto& [node, io] : spans_)
      for (const Span& sp : io.writes) {
        if (!sp.exact || sp.space >= kUnplacedSpaces || sp.ref->scratch || readAnywhere.count(sp.ref->space)) continue;
        // Only a whole value is reported: real kernels read part of a tile all the time (a
        // column of a transposed tile, the valid rows).
        LostValue lost{flow_.nodes[node].op, sp.ref, sp.bytes, false};
        bool read = false;
        for (auto [seg, end] = segmentsOf(sp); seg < end && !read; ++seg) {
          read = after[node].test(seg);
          lost.overwritten |= writtenAfter[node].test(seg);
        }
        if (!read) out_.lost.push_back(lost);
      }
  }

  // Which shared roots' values each writing op computes from, by bytes (reaching definitions):
  // a write gives its bytes the values its op read plus its own tile's; a read through any handle
  // carries what its bytes hold. So a write computed from what the bytes it overwrites held is a
  // new version of that value whatever handle it goes through (an accumulator continued through
  // a fresh handle at its address, a never-written row-major handle of a column-major result).
  bool computeLineage() {
    const size_t segments = segments_;
    const size_t perSet = (roots_.size() + 63) / 64;
    if (flow_.nodes.size() * segments * perSet > kMaxPendingWords) return false;
    // State: per segment, a word-aligned set of the shared roots whose values its bytes hold.
    auto carried = [&](const Bits& state, const std::vector<Span>& reads) {
      Bits out(roots_.size());
      for (const Span& sp : reads)
        for (auto [seg, end] = segmentsOf(sp); seg < end; ++seg)
          for (size_t w = 0; w < perSet; ++w) out.w[w] |= state.w[seg * perSet + w];
      return out;
    };
    auto in = solveForward(flow_, Bits(segments * perSet * 64), [&](const FlowNode& fn, Bits& state) {
      auto it = spans_.find(static_cast<int>(&fn - flow_.nodes.data()));
      if (it == spans_.end() || it->second.writes.empty()) return;
      const Bits from = carried(state, it->second.reads);
      for (const Span& sp : it->second.writes)
        for (auto [seg, end] = segmentsOf(sp); seg < end; ++seg) {
          for (size_t w = 0; w < perSet; ++w) {
            uint64_t& word = state.w[seg * perSet + w];
            word = sp.exact ? from.w[w] : word | from.w[w];
          }
          if (sp.root >= 0) state.set(seg * perSet * 64 + sp.root);
        }
    });
    for (const auto& [node, io] : spans_)
      if (!io.writes.empty() && !in[node].w.empty()) carriedAt_.emplace(node, carried(in[node], io.reads));
    return true;
  }

  // Is what the op at `node` writes computed from the value of shared root `root` (read through
  // any handle whose bytes hold it, or a value derived from it)?
  bool derivedFrom(int node, int root) const {
    auto it = carriedAt_.find(node);
    return it != carriedAt_.end() && it->second.test(root);
  }

  // A write of one tile while another tile's value, in the bytes it overwrites, is still to be
  // read, unless the write is a new version of that tile (its bytes, computed from it).
  void overwrittenValues() {
    // Forward: has a root been written since it was placed (does it hold a value of its own)?
    const size_t nRoots = roots_.size();
    auto held = solveForward(flow_, Bits(nRoots), [&](const FlowNode& n, Bits& s) {
      int node = static_cast<int>(&n - flow_.nodes.data());
      if (auto p = placementAt_.find(node); p != placementAt_.end()) {
        auto r = rootIndex_.find(placements_[p->second].op->tileValue);
        if (r != rootIndex_.end()) s.clear(r->second);
      }
      if (auto span = accessesAt_.find(node); span != accessesAt_.end())
        for (size_t i = span->second.first; i < span->second.second; ++i)
          if (accesses_[i].write) s.set(accesses_[i].root);
    });
    // The reads that see a value their own tile was given: those a write can overwrite. Each is
    // cut into segments at every byte where a write of its tile or another tile's placement
    // starts or ends, so a write through a view retires exactly the bytes it rewrites.
    std::set<int64_t> cuts;  // over all spaces: a cut a segment does not need costs one bit
    for (const Access& a : accesses_)
      if (a.exact) cuts.insert({a.bytes.begin, a.bytes.end});
    for (const Placement& p : placements_)
      for (const ByteRange& r : p.ranges) cuts.insert({r.begin, r.end});
    struct Read {
      size_t access;
      ByteRange bytes;
    };
    std::vector<Read> reads;
    for (size_t i = 0; i < accesses_.size(); ++i) {
      const Access& a = accesses_[i];
      if (a.write || held[a.node].w.empty() || !held[a.node].test(a.root)) continue;
      int64_t from = a.bytes.begin;
      for (auto c = cuts.upper_bound(from); c != cuts.end() && *c < a.bytes.end; ++c) {
        reads.push_back({i, {from, *c}});
        from = *c;
      }
      reads.push_back({i, {from, a.bytes.end}});
    }
    if (reads.empty()) return;
    if (!computeLineage()) {
      out_.notChecked = valuesPastLimit();
      return;
    }
    const size_t nodes = flow_.nodes.size();
    if (nodes * ((reads.size() + 63) / 64) > kMaxPendingWords) {
      out_.notChecked = "its values: " + std::to_string(reads.size()) + " tile read segments over " +
                        std::to_string(nodes) + " flow nodes are past the analysis limit";
      return;
    }
    std::vector<std::vector<size_t>> readsOfRoot(nRoots);
    std::map<int, Bits> gen, kill;
    for (size_t k = 0; k < reads.size(); ++k) {
      const Access& a = accesses_[reads[k].access];
      readsOfRoot[a.root].push_back(k);
      gen.try_emplace(a.node, reads.size()).first->second.set(k);
    }
    for (size_t n = 0; n < nodes; ++n) {
      int node = static_cast<int>(n);
      // A new placement, or a write of known bytes, retires the reads of those bytes.
      auto retire = [&](int root, const ByteRange* bytes) {
        Bits& k = kill.try_emplace(node, reads.size()).first->second;
        for (size_t r : readsOfRoot[root])
          if (!bytes || (bytes->begin <= reads[r].bytes.begin && reads[r].bytes.end <= bytes->end)) k.set(r);
      };
      if (auto p = placementAt_.find(node); p != placementAt_.end())
        if (auto r = rootIndex_.find(placements_[p->second].op->tileValue); r != rootIndex_.end()) retire(r->second, nullptr);
      if (auto span = accessesAt_.find(node); span != accessesAt_.end())
        for (size_t i = span->second.first; i < span->second.second; ++i)
          if (accesses_[i].write && accesses_[i].exact) retire(accesses_[i].root, &accesses_[i].bytes);
    }
    // Backward: the reads still to come after each node (pending on exit from it).
    std::vector<Bits> after = liveAfter(flow_, reads.size(), gen, kill);
    for (const auto& [node, span] : accessesAt_) {
      const Op& op = *flow_.nodes[node].op;
      for (size_t j = span.first; j < span.second; ++j) {
        const Access& w = accesses_[j];
        if (!w.write) continue;
        for (size_t k : setBits(after[node])) {
          const Access& r = accesses_[reads[k].access];
          if (r.root == w.root || r.ref->space != w.ref->space || !reads[k].bytes.overlaps(w.bytes)) continue;
          // The read sees an earlier value of its tile only if that tile holds one here: before
          // its first write a handle reads whatever its bytes hold (this write's value, say).
          if (held[node].w.empty() || !held[node].test(r.root)) continue;
          // A new version of the tile: the same bytes, computed from it (an in-place op, a
          // loop-carried update through another handle). Later reads see it on purpose.
          // Not when the later read also reads the written tile: it wants both values.
          const Op& reader = *flow_.nodes[r.node].op;
          bool readsBoth = std::any_of(reader.reads.begin(), reader.reads.end(),
                                       [&](const MemRef& m) { return m.value == roots_[w.root]; });
          const bool derived = derivedFrom(node, r.root);
          bool newVersion = w.bytes.begin == r.bytes.begin && w.bytes.end == r.bytes.end && !readsBoth && derived;
          // A window copied onto the bytes it came from changes nothing (TEXTRACT in place).
          bool window = op.sourceWindowByte && !op.reads.empty() && op.reads.front().value == roots_[r.root] &&
                        w.bytes.begin == r.bytes.begin + *op.sourceWindowByte;
          if (newVersion || window) continue;
          TileClash c = clashOf(w, r, &reader);
          c.readTogether = readsBoth && derived;
          if (!c.exact) {
            IterationVerdict v = perIteration(w, r, node);
            if (v.decided && !v.clash) continue;
            if (v.decided) c.exact = true, c.writtenBytes = v.written, c.readBytes = v.read;
          }
          keep(c);
        }
      }
    }
  }

  // Two views at the counters of one loop nest (row s of two tiles) are bounds for the whole
  // loop but exact in each iteration. The write clashes with the read in its own iteration when
  // their bytes overlap there and a path within the iteration reaches the read with no write of
  // the read's tile covering its bytes first; in a later iteration only if the read can be
  // reached from the loop head without such a write. Not decided when a later iteration is
  // possible and overlaps, or when the two are not views of one nest.
  struct IterationVerdict {
    bool decided = false, clash = false;
    ByteRange written, read;  // where they overlap in one iteration
  };

  // The bytes a view covers in iteration i (lines), from its placement's start.
  static std::vector<ByteRange> bytesInIteration(const Access& a, size_t i) {
    std::vector<ByteRange> out;
    for (const auto& [b, e] : a.ref->tileViewBytesAt(a.ref->tileViewOffsetPerIteration[i]))
      out.push_back({a.placed.begin + b, a.placed.begin + e});
    return out;
  }

  static bool perIterationViews(const Access& a, const Access& b) {
    const MemRef &x = *a.ref, &y = *b.ref;
    return !x.tileViewOffsetPerIteration.empty() && x.tileViewLoops == y.tileViewLoops &&
           x.tileViewOffsetPerIteration.size() == y.tileViewOffsetPerIteration.size();
  }

  // Does op `node` write `r`'s tile over all of r's bytes (in every iteration, for a view)?
  bool coversRead(int node, const Access& r) const {
    auto span = accessesAt_.find(node);
    if (span == accessesAt_.end()) return false;
    for (size_t i = span->second.first; i < span->second.second; ++i) {
      const Access& a = accesses_[i];
      if (!a.write || a.root != r.root || a.placement != r.placement || !a.ref->fullyValid) continue;
      // An exact write covers the read's bytes; a view at the loop counters covers the read's
      // view when it has its offset in every iteration and at least its lines.
      const MemRef &x = *a.ref, &y = *r.ref;
      bool covers = a.exact ? a.bytes.begin <= r.bytes.begin && r.bytes.end <= a.bytes.end
                            : perIterationViews(a, r) && x.tileViewOffsetPerIteration == y.tileViewOffsetPerIteration &&
                                  x.tileViewBytes >= y.tileViewBytes && x.tileViewLines == y.tileViewLines &&
                                  x.tileViewStride == y.tileViewStride && x.tileViewLineBytes == y.tileViewLineBytes;
      if (covers) return true;
    }
    return false;
  }

  // Is `to` reached from `from`'s successors (backward: `from` from `to`'s predecessors) without
  // passing a head of the loops `loops` or an op that covers `r`? Reaching a loop head counts as
  // reached when `headIsGoal`.
  bool reaches(int from, int to, const std::vector<std::string>& loops, const Access& r, bool backward,
               bool headIsGoal) const {
    auto isHead = [&](int n) {
      const FlowNode& f = flow_.nodes[n];
      return f.kind == FlowNode::Kind::LoopHead && f.stmt &&
             std::find(loops.begin(), loops.end(), f.stmt->var) != loops.end();
    };
    std::vector<bool> seen(flow_.nodes.size(), false);
    std::deque<int> work{from};
    while (!work.empty()) {
      int n = work.front();
      work.pop_front();
      for (int next : backward ? flow_.nodes[n].pred : flow_.nodes[n].succ) {
        if (seen[next]) continue;
        seen[next] = true;
        if (isHead(next)) {
          if (headIsGoal) return true;
          continue;
        }
        if (next == to) return true;
        if (!coversRead(next, r)) work.push_back(next);
      }
    }
    return false;
  }

  IterationVerdict perIteration(const Access& w, const Access& r, int node) const {
    IterationVerdict v;
    if (!perIterationViews(w, r)) return v;
    const std::vector<std::string>& loops = w.ref->tileViewLoops;
    const size_t n = w.ref->tileViewOffsetPerIteration.size();
    std::vector<std::vector<ByteRange>> wb(n), rb(n);
    for (size_t i = 0; i < n; ++i) wb[i] = bytesInIteration(w, i), rb[i] = bytesInIteration(r, i);
    auto overlap = [](const std::vector<ByteRange>& a, const std::vector<ByteRange>& b, ByteRange* wa, ByteRange* ra) {
      for (const ByteRange& x : a)
        for (const ByteRange& y : b)
          if (x.overlaps(y)) {
            if (wa) *wa = x, *ra = y;
            return true;
          }
      return false;
    };
    bool same = false;
    for (size_t i = 0; i < n && !same; ++i) same = overlap(wb[i], rb[i], &v.written, &v.read);
    if (same && reaches(node, r.node, loops, r, false, false)) {
      v.decided = v.clash = true;
      return v;
    }
    bool later = false;
    for (size_t i = 0; i < n && !later; ++i)
      for (size_t j = i + 1; j < n && !later; ++j) later = overlap(wb[i], rb[j], nullptr, nullptr);
    v.decided = !later || !reaches(r.node, -1, loops, r, true, true);
    return v;
  }

  const Flow& flow_;
  const std::function<bool(const Op&)>& placed_;
  TileClashes out_;
  std::vector<Placement> placements_;
  std::map<int, int> placementAt_;                       // flow node -> placement
  std::map<std::string, std::vector<int>> placementsOf_;  // root -> placements
  std::vector<std::string> roots_;                         // roots sharing bytes with another
  std::map<std::string, int> rootIndex_;
  std::vector<Access> accesses_;
  std::map<int, std::pair<size_t, size_t>> accessesAt_;  // flow node -> its accesses
  std::map<const Op*, int> order_;
  std::map<const Op*, TileClash> byLater_;  // the finding's placement -> its clash
  struct NodeSpans {
    std::vector<Span> reads, writes;
  };
  std::map<int, NodeSpans> spans_;  // flow node -> its tile operands' bytes
  std::map<int, std::vector<int64_t>> cutList_;  // space -> its segment boundaries
  std::map<int, size_t> segmentBase_;            // space -> index of its first segment
  size_t segments_ = 0;
  std::vector<std::vector<int>> reach_;  // flow node -> placements of multi-placed tiles reaching it
  std::map<int, Bits> carriedAt_;        // writing op's node -> shared roots whose values it reads
  std::set<std::tuple<const MemRef*, const MemRef*, int64_t, int64_t>> decidedPairs_;  // elementwiseClash
};

}  // namespace

TileClashes tileClashes(const Flow& flow, const std::function<bool(const Op&)>& placed, bool lostValuesToo) {
  return TileValueAnalysis(flow, placed).run(lostValuesToo);
}

}  // namespace ptov
