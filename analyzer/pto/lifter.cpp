#include "analyzer/pto/lifter.h"

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/hivm/lifter.h"
#include "analyzer/model/op_registry.h"
#include "analyzer/numbers.h"

namespace ptov::pto {

using mlir::angleBody;
using mlir::elementBytes;
using mlir::Tok;
using mlir::Token;
using mlir::unquote;
using mlir::ValueInfo;

std::string normalizeArch(const std::string& arch) {
  std::string a = arch;
  if (a.size() >= 2 && a.front() == '"') a = a.substr(1, a.size() - 2);
  static const std::map<std::string, std::string> families = {{"a2", "a2a3"}, {"a3", "a2a3"}, {"a2a3", "a2a3"}, {"a5", "a5"}};
  auto it = families.find(a);
  return it == families.end() ? "" : it->second;
}

namespace {

// Tile `loc=` keyword -> model address space (vec -> UB, mat -> L1, left -> L0A, ...); Other for a
// keyword not known here.
MemSpace spaceForLoc(const std::string& loc) {
  using M = MemSpace;
  static const std::map<std::string, MemSpace> m = {
      {"vec", M::UB},   {"ub", M::UB},     {"mat", M::L1},    {"l1", M::L1},         {"left", M::L0A},
      {"l0a", M::L0A},  {"right", M::L0B}, {"l0b", M::L0B},   {"acc", M::L0C},       {"l0c", M::L0C},
      {"bias", M::Bias}, {"bt", M::Bias},  {"scaling", M::Scaling}, {"fb", M::Scaling}, {"gm", M::GM},
  };
  auto it = m.find(loc);
  return it == m.end() ? M::Other : it->second;
}

struct TileType {
  MemSpace space = MemSpace::None;
  int64_t bytes = 0;
  int64_t rows = 0, cols = 0;
  int elemBytes = 0;
  bool colMajor = false;  // blayout=col_major: element (r, c) at c * rows + r
  bool boxed = false;     // slayout other than none_box: fractal boxes, not a plain row/column order
  bool partlyValid = false;  // v_row / v_col not the whole tile (or not constant): ops walk less
};

// Parses !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64, ...> and the compact
// !pto.tile_buf<vec, 16x16xf32, ...> form.
std::optional<TileType> parseTileTypeText(const std::string& text) {
  if (text.rfind("!pto.tile_buf<", 0) != 0) return std::nullopt;
  std::string body = text.substr(14, text.size() - 15);
  std::vector<std::string> parts;
  std::string curPart;
  int depth = 0;
  for (char c : body) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(curPart);
      curPart.clear();
      continue;
    }
    if (c != ' ') curPart += c;
  }
  parts.push_back(curPart);
  TileType tt;
  std::string dtype;
  int64_t rows = 0, cols = 0;
  std::optional<int64_t> validRows, validCols;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    auto eq = p.find('=');
    if (eq == std::string::npos) {
      if (i == 0) {
        tt.space = spaceForLoc(p);
      } else if (i == 1) {  // RxCxT
        auto x1 = p.find('x');
        auto x2 = p.find('x', x1 + 1);
        if (x1 == std::string::npos || x2 == std::string::npos) continue;
        rows = parseInt(p.substr(0, x1)).value_or(0);
        cols = parseInt(p.substr(x1 + 1, x2 - x1 - 1)).value_or(0);
        dtype = p.substr(x2 + 1);
      }
      continue;
    }
    std::string k = p.substr(0, eq), v = p.substr(eq + 1);
    if (k == "loc") tt.space = spaceForLoc(v);
    else if (k == "dtype") dtype = v;
    else if (k == "blayout") tt.colMajor = v == "col_major";
    else if (k == "slayout") tt.boxed = v != "none_box";
    else if (k == "rows") rows = parseInt(v).value_or(0);
    else if (k == "cols") cols = parseInt(v).value_or(0);
    else if (k == "v_row") validRows = parseInt(v).value_or(-1);
    else if (k == "v_col") validCols = parseInt(v).value_or(-1);
  }
  tt.partlyValid = (validRows && *validRows != rows) || (validCols && *validCols != cols);
  // A size past 64 bits (or a dynamic one) is unknown (0): it must not wrap to a small tile.
  int64_t cells = 0, bytes = 0;
  bool fits = rows >= 0 && cols >= 0 && !__builtin_mul_overflow(rows, cols, &cells) &&
              !__builtin_mul_overflow(cells, int64_t(elementBytes(dtype)), &bytes);
  tt.bytes = fits ? bytes : 0;
  tt.rows = rows;
  tt.cols = cols;
  tt.elemBytes = elementBytes(dtype);
  return tt;
}

// The same, remembered per thread: a kernel spells a handful of tile types hundreds of times.
std::optional<TileType> parseTileType(const std::string& text) {
  if (text.rfind("!pto.tile_buf<", 0) != 0) return std::nullopt;
  thread_local std::unordered_map<std::string, std::optional<TileType>> known;
  auto it = known.find(text);
  if (it != known.end()) return it->second;
  if (known.size() >= 4096) known.clear();  // bounded whatever the input spells
  return known.emplace(text, parseTileTypeText(text)).first->second;
}

// !pto.multi_tile_buf<SLOT, count=N>, SLOT a tile type in either form (`!pto.tile_buf<...>` or
// the compact `vec, 16x16xf16`): N slots of that tile, one after the other.
struct MultiTileType {
  TileType slot;
  int64_t count = 0;
};
std::optional<MultiTileType> parseMultiTileType(const std::string& text) {
  const std::string head = "!pto.multi_tile_buf<";
  if (text.rfind(head, 0) != 0 || text.back() != '>') return std::nullopt;
  std::string body = text.substr(head.size(), text.size() - head.size() - 1);
  size_t cut = body.rfind("count");
  size_t eq = cut == std::string::npos ? cut : body.find('=', cut);
  if (eq == std::string::npos) return std::nullopt;
  int64_t count = 0;
  for (size_t i = eq + 1; i < body.size() && count < (int64_t(1) << 20); ++i)
    if (std::isdigit(static_cast<unsigned char>(body[i]))) count = count * 10 + (body[i] - '0');
  std::string slot = body.substr(0, body.rfind(',', cut));
  while (!slot.empty() && std::isspace(static_cast<unsigned char>(slot.back()))) slot.pop_back();
  if (slot.rfind("!pto.tile_buf<", 0) != 0) slot = "!pto.tile_buf<" + slot + ">";
  std::optional<TileType> t = parseTileType(slot);
  if (!t || count <= 0 || t->bytes <= 0) return std::nullopt;
  return MultiTileType{*t, count};
}

FenceScope fenceScopeOf(const std::string& scope) {
  static const std::map<std::string, FenceScope> scopes = {
      {"gm", FenceScope::GM}, {"all", FenceScope::All}, {"local_memory", FenceScope::LocalMemory}};
  auto it = scopes.find(scope);
  return it == scopes.end() ? FenceScope::Unknown : it->second;
}

// pointer type !pto.ptr<f32> / !pto.ptr<i32, ub> -> space (GM by default)
MemSpace pointerSpace(const std::string& type) {
  auto comma = type.find(',');
  if (type.rfind("!pto.ptr<", 0) != 0 || comma == std::string::npos) return MemSpace::GM;
  std::string s = type.substr(comma + 1);
  while (!s.empty() && (s.front() == ' ')) s.erase(s.begin());
  if (!s.empty() && s.back() == '>') s.pop_back();
  return spaceForLoc(s);
}

class FunctionLifter : public mlir::LiftContext {
 public:
  FunctionLifter(Kernel& k, std::vector<InputDiagnostic>& diags) : k_(k), diags_(diags) {}

  void liftSignature(const mlir::Op& fn) {
    for (const auto& a : fn.entryArgs) {
      Param p;
      p.name = a.name;
      p.type = a.type;
      p.isPointer = a.type.rfind("!pto.ptr", 0) == 0 || a.type.rfind("memref", 0) == 0 ||
                    a.type.rfind("!pto.tensor_view", 0) == 0;
      if (p.isPointer) {
        auto lt = a.type.find('<');
        auto end = a.type.find_first_of(",>", lt);
        if (lt != std::string::npos && end != std::string::npos)
          p.elemType = a.type.substr(lt + 1, end - lt - 1);
      } else {
        p.elemType = a.type;
      }
      p.synthetic = a.name.rfind("%__pypto_", 0) == 0;
      int idx = static_cast<int>(k_.params.size());
      k_.params.push_back(p);
      ValueInfo v;
      if (p.isPointer) {
        v.param = idx;
        v.space = pointerSpace(a.type);
        v.byteBase = Expr::constant(0);
        v.elemBytes = elementBytes(p.elemType);
        if (a.type.rfind("memref", 0) == 0) {
          MemSpace hs = hivm::addressSpace(a.type);
          v.space = hs == MemSpace::None ? MemSpace::GM : hs;
        }
      } else {
        v.expr = Expr::param(a.name, idx);
        v.param = idx;
      }
      values_[a.name] = v;
    }
  }

  StmtPtr liftRegion(const mlir::Region& r) {
    ++regionDepth_;
    StmtPtr body = liftRegionBody(r);
    forgetEventSlotsSetAtOrBelow(regionDepth_);
    --regionDepth_;
    return body;
  }

 private:
  StmtPtr liftRegionBody(const mlir::Region& r) {
    if (r.blocks.size() <= 1) {
      auto seq = Stmt::seq();
      if (!r.blocks.empty()) liftOpsInto(r.blocks[0].ops, *seq);
      return seq;
    }
    auto blocks = std::make_unique<Stmt>();
    blocks->kind = Stmt::Kind::Blocks;
    // At the first branch: what makes the body unstructured, and what a finding points at.
    for (const auto& b : r.blocks)
      for (const auto& op : b.ops)
        if (!op.successors.empty() && blocks->loc.line == 0) blocks->loc = op.loc;
    for (size_t i = 0; i < r.blocks.size(); ++i) {
      const auto& b = r.blocks[i];
      for (const auto& a : b.args) values_[a.name] = ValueInfo{};
      auto seq = Stmt::seq();
      liftOpsInto(b.ops, *seq);
      blocks->labels.push_back(b.label.empty() ? "^entry" : b.label);
      blocks->children.push_back(std::move(seq));
    }
    return blocks;
  }

  // pto.declare_eventid_array / eventid_array_set / eventid_array_get: the array is mutable
  // state, so slots are tracked in program order and forgotten when a nested region (a branch
  // or loop body that may not run, or run again) has set them.
  struct EventSlot {
    ExprPtr value;
    int setDepth = 0;
  };
  std::map<std::string, std::map<int64_t, EventSlot>> eventArrays_;
  int regionDepth_ = 0;

  void forgetEventSlotsSetAtOrBelow(int depth) {
    for (auto& [array, slots] : eventArrays_)
      for (auto it = slots.begin(); it != slots.end();)
        it = it->second.setDepth >= depth ? slots.erase(it) : std::next(it);
  }

  // False when the op has too few operands to be read (then it is lifted as an unknown op).
  bool liftEventArrayOp(const mlir::Op& op, ops::Lift how) {
    const auto& ops = op.operands;
    if (how == ops::Lift::EventArrayDeclare) {
      for (const auto& r : op.results) eventArrays_[r].clear();
      return true;
    }
    if (how == ops::Lift::EventArraySet && ops.size() >= 3) {
      auto& slots = eventArrays_[ops[0]];
      auto idx = evalConst(exprOf(ops[1]));
      if (!idx) slots.clear();  // unknown slot: every slot may have changed
      else slots[*idx] = EventSlot{exprOf(ops[2]), regionDepth_};
      return true;
    }
    if (how == ops::Lift::EventArrayGet && ops.size() >= 2) {
      ValueInfo v;
      auto idx = evalConst(exprOf(ops[1]));
      auto& slots = eventArrays_[ops[0]];
      auto it = idx ? slots.find(*idx) : slots.end();
      v.expr = it != slots.end() ? it->second.value : Expr::unknown(op.results.empty() ? "" : op.results[0]);
      defineResults(op, v);
      return true;
    }
    return false;
  }

  const ValueInfo* info(const std::string& v) const override {
    auto it = values_.find(v);
    return it == values_.end() ? nullptr : &it->second;
  }

  ExprPtr exprOf(const std::string& v) const override {
    const ValueInfo* i = info(v);
    if (i && i->expr) return i->expr;
    return Expr::unknown(v);
  }

  MemRef memRefOf(const std::string& v) const override {
    MemRef m;
    m.value = v;
    if (const ValueInfo* i = info(v)) {
      m.param = i->param;
      m.peer = i->peer;
      if (i->space != MemSpace::None) m.space = i->space;
      if (!i->root.empty()) {
        m.value = i->root;
        if (i->isTile && !i->ownIdentity) {
          m.tileView = v;
          m.tileViewOffset = i->viewOffset;
          m.tileViewBytes = i->viewBytes;
          m.tileViewOffsetChoices = i->viewOffsetChoices;
          m.tileViewOffsetPerIteration = i->viewOffsetPerIteration;
          m.tileViewLoops = i->viewLoops;
          m.tileViewLines = i->viewLines;
          m.tileViewStride = i->viewStride;
          m.tileViewLineBytes = i->viewLineBytes;
        }
      }
      if (i->isTile) {
        m.elementBytes = i->tileElemBytes;
        m.rowElements = i->tileRowElements;
        m.fullyValid = i->tileFullyValid;
      }
      m.view = i->view;
      m.offsets = i->offsets;
      m.sizes = i->sizes;
    }
    return m;
  }

  void note(const mlir::Op& op, const std::string& msg) override {
    diags_.push_back({InputDiagnostic::Level::Note, op.loc, msg});
  }

  // An integer literal of `op`; one that does not fit in 64 bits is an input error.
  std::optional<int64_t> integer(const mlir::Op& op, std::string_view text) const override {
    auto n = parseInt(text);
    if (!n)
      diags_.push_back({InputDiagnostic::Level::Error, op.loc, "integer '" + std::string(text) + "' does not fit in 64 bits"});
    return n;
  }

  // Pipe and optional id of ops written `<PIPE_X>, 0` or `#pto.pipe<PIPE_X>`.
  static Pipe firstPipe(const mlir::Op& op) {
    for (const auto& t : op.tokens) {
      std::string name = t.kind == Tok::Attr ? angleBody(t.text) : unquote(t.text);
      Pipe p = pipeFromName(name);
      if (p != Pipe::Unknown && name.rfind("PIPE_", 0) == 0) return p;
    }
    return Pipe::Unknown;
  }

  void liftOpsInto(const std::vector<mlir::Op>& ops, Stmt& seq) {
    for (const auto& op : ops) liftOp(op, seq);
  }

  // A value computed through more than kMaxValueDepth operations (20,000 chained adds overflowed
  // the stack of every expression walk) becomes unknown, and the gap is counted and shown.
  void defineResults(const mlir::Op& op, const ValueInfo& v) override {
    if (v.expr && v.expr->depth > kMaxValueDepth) {
      ValueInfo shallow = v;
      shallow.expr = Expr::unknown(op.results.empty() ? "a deep value" : op.results[0]);
      k_.gaps.push_back(ModelGap{ModelGap::Kind::UnknownOp, op.loc,
                                 "a value computed through more than " + std::to_string(kMaxValueDepth) +
                                     " operations (taken as unknown)"});
      for (const auto& r : op.results) values_[r] = shallow;
      return;
    }
    for (const auto& r : op.results) values_[r] = v;
  }

  // Results the model does not follow: each an unknown value of its own.
  void defineUnknown(const mlir::Op& op) override {
    for (const auto& r : op.results) {
      ValueInfo v;
      v.expr = Expr::unknown(r);
      values_[r] = v;
    }
  }

  // One op: its registry row says how it is lifted (one hash lookup; no comparisons of names).
  void liftOp(const mlir::Op& op, Stmt& seq) {
    using L = ops::Lift;
    const ops::OpRow* row = ops::lookupMlir(op.name);
    switch (row ? row->lift : L::Op) {
      case L::Skip: return;
      case L::Unfollowed: return defineUnknown(op);
      case L::Constant: return liftConstant(op);
      case L::Binary:
      case L::Xor:
      case L::Compare:
      case L::Select: return liftArith(op, *row);
      case L::Cast: return liftCast(op);
      case L::BlockIdx:
      case L::BlockNum: {
        ValueInfo v;
        v.expr = row->lift == L::BlockIdx ? Expr::blockIdx() : Expr::blockNum();
        return defineResults(op, v);
      }
      case L::View:
      case L::Subview:
      case L::TileView:
      case L::MakeTensorView:
      case L::PartitionView:
      case L::CastPtr:
      case L::AddPtr:
      case L::SlotView:
        if (liftView(op, row->lift)) return;
        break;
      case L::EventArrayDeclare:
      case L::EventArraySet:
      case L::EventArrayGet:
        if (liftEventArrayOp(op, row->lift)) return;
        break;
      case L::For: return liftFor(op, seq);
      case L::If: return liftIf(op, seq);
      case L::While: return liftWhile(op, seq);
      case L::MemrefAlias:
      case L::Alloc:
      case L::PointerCast:
      case L::ScalarMemory:
      case L::Lock: return hivm_.liftSpecial(op, *row, seq);
      case L::CustomMacro:
        hivm_.noteCustom(op);
        break;
      case L::Op:
        if (row ? row->dialect == ops::Dialect::Hivm : op.name.rfind("hivm.hir.", 0) == 0)
          return hivm_.liftOp(op, row, seq);
        break;
    }
    liftModelOp(op, row && row->modelled ? row : nullptr, seq);
  }

  void liftConstant(const mlir::Op& op) {
    ValueInfo v;
    for (const auto& t : op.tokens) {
      if (t.kind == Tok::Integer) {
        auto n = integer(op, t.text);
        v.expr = n ? Expr::constant(*n) : Expr::unknown(op.results.empty() ? "" : op.results[0]);
        break;
      }
      if (t.kind == Tok::BareId && (t.text == "true" || t.text == "false")) {
        v.expr = Expr::constant(t.text == "true");
        break;
      }
    }
    defineResults(op, v);
  }

  // Binary integer arithmetic, comparisons and selects of the operands' values.
  void liftArith(const mlir::Op& op, const ops::OpRow& row) {
    const auto& ops = op.operands;
    if (ops.size() < (row.lift == ops::Lift::Select ? 3u : 2u)) return;
    ValueInfo v;
    ExprPtr a = exprOf(ops[0]), b = exprOf(ops[1]);
    switch (row.lift) {
      case ops::Lift::Xor:  // a ^ b = (a | b) - (a & b): `p ^= 1` alternates slots and events
        v.expr = Expr::binary(Expr::Kind::Sub, Expr::binary(Expr::Kind::Or, a, b), Expr::binary(Expr::Kind::And, a, b));
        break;
      case ops::Lift::Compare: {
        std::string pred;
        for (const auto& t : op.tokens)
          if (t.kind == Tok::BareId) {
            pred = t.text;
            break;
          }
        v.expr = Expr::cmp(pred, a, b);
        break;
      }
      case ops::Lift::Select:
        v.expr = Expr::select(a, b, exprOf(ops[2]));
        break;
      default: {
        v.expr = Expr::binary(row.expr, a, b);
        const ValueInfo* ia = info(ops[0]);
        const ValueInfo* ib = info(ops[1]);
        v.peerOffset = (ia && ia->peerOffset) || (ib && ib->peerOffset);
      }
    }
    defineResults(op, v);
  }

  void liftCast(const mlir::Op& op) {
    const auto& ops = op.operands;
    if (ops.empty()) return;
    ValueInfo v;
    if (const ValueInfo* a = info(ops[0])) v = *a;
    else v.expr = Expr::unknown(ops[0]);
    defineResults(op, v);
  }

  // Views of tiles and GM, and pointer arithmetic: they keep the origin of their base operand.
  // False when the op is not lifted as a view here (a TileView of no tile: the op itself).
  bool liftView(const mlir::Op& op, ops::Lift how) {
    using L = ops::Lift;
    const auto& ops = op.operands;
    bool ofTile = !ops.empty() && info(ops[0]) && info(ops[0])->isTile;
    if ((how == L::View || how == L::Subview || how == L::TileView) && ofTile) return liftTileView(op, how == L::Subview), true;
    if (how == L::TileView) return false;
    if (how == L::SlotView) return liftSlotView(op), true;
    if (ops.empty()) return true;
    if (how == L::AddPtr) return liftAddPtr(op), true;
    ValueInfo v = info(ops[0]) ? *info(ops[0]) : ValueInfo{};
    v.expr = nullptr;
    v.isTile = false;
    if (how == L::MakeTensorView && !op.results.empty()) {
      v.view = op.results[0];
      v.offsets.clear();
      v.sizes.clear();
      v.strides = exprList(op, "strides");
      if (int e = elementBytes(viewElementType(op))) v.elemBytes = e;
    } else if (how == L::PartitionView) {
      v.byteBase = partitionStart(op, v);
      partitionBox(op, v);
    } else if (how == L::CastPtr) {
      v.elemBytes = elementBytes(pointerElementType(op));  // the same bytes, a new element size
      if (v.elemBytes <= 0) v.byteBase = nullptr;
    } else if (how == L::View || how == L::Subview) {
      v.byteBase = nullptr;
      v.offsets.clear();  // a reshaped or reinterpreted view: its box is not modelled
      v.sizes.clear();
      v.view.clear();
    }
    defineResults(op, v);
    return true;
  }

  void liftAddPtr(const mlir::Op& op) {
    const auto& ops = op.operands;
    ValueInfo v = info(ops[0]) ? *info(ops[0]) : ValueInfo{};
    v.expr = nullptr;
    if (ops.size() > 1) {
      const ValueInfo* off = info(ops[1]);
      if (off && off->peerOffset)
        v.peer = true;  // the same bytes of a peer's copy
      else if (v.byteBase && v.elemBytes > 0)
        v.byteBase = Expr::binary(Expr::Kind::Add, v.byteBase,
                                  Expr::binary(Expr::Kind::Mul, exprOf(ops[1]), Expr::constant(v.elemBytes)));
      else
        v.byteBase = nullptr;
    }
    defineResults(op, v);
  }

  // An op of the model: its kind and pipes from its row (null: not in the registry, a gap), its
  // accesses from its operands.
  void liftModelOp(const mlir::Op& op, const ops::OpRow* row, Stmt& seq) {
    const std::string& n = op.name;
    Op m;
    m.kind = row ? row->kind : OpKind::Other;
    m.name = n;
    m.dialect = dialectOfMlirName(n);
    m.loc = op.loc;
    m.pipes = row ? row->pipes : std::vector<Pipe>{};
    m.uses = op.operands;
    m.defs = op.results;
    const auto& ops = op.operands;
    if (!liftOperands(op, row, m, seq)) return;  // lifted as its phases
    // An op the table does not know may read, write and synchronise: counted, so every rule it
    // could touch says unknown instead of passing over it.
    if (!row)
      k_.gaps.push_back(ModelGap{ModelGap::Kind::OpaqueOp, op.loc,
                                 "'" + n + "' (not in the op table: what it reads, writes and synchronises is not "
                                 "modelled)"});
    if (m.kind == OpKind::Other && !op.regions.empty()) {
      // pto.section.vector / pto.vecscope / pto.fusion_region / unknown region ops: their bodies
      // run in place.
      for (const auto& r : op.regions) seq.children.push_back(liftRegion(r));
      defineYieldedResults(op);
      return;
    }
    if (m.kind == OpKind::Other) {
      // Keep results flowing: an unknown op's result derived from a pointer keeps its origin.
      if (!ops.empty() && info(ops[0]) && !op.results.empty()) {
        ValueInfo v = *info(ops[0]);
        v.expr = nullptr;
        if (v.param >= 0 && v.space == MemSpace::None) v.param = -1;
        if (v.space != MemSpace::None) defineResults(op, v);
      }
      return;  // views, arith, yields: nothing a rule needs as a statement
    }
    // An access through a view uses its root tile too (liveness, the mutation tool).
    for (const auto* refs : {&m.reads, &m.writes})
      for (const MemRef& r : *refs)
        if (!r.tileView.empty() && std::find(m.uses.begin(), m.uses.end(), r.value) == m.uses.end()) m.uses.push_back(r.value);
    seq.children.push_back(Stmt::opStmt(std::move(m)));
  }

  // What the op reads, writes and synchronises, by its kind; false when it was lifted as the
  // phases it issues (TPUT / TGET) and is done.
  bool liftOperands(const mlir::Op& op, const ops::OpRow* row, Op& m, Stmt& seq) {
    const auto& ops = op.operands;
    switch (m.kind) {
      case OpKind::Load:
      case OpKind::Prefetch:
        liftTransfer(op, m);
        break;
      case OpKind::Store:
        if (!ops.empty()) m.reads.push_back(tileRef(ops[0]));
        if (ops.size() > 1) m.writes.push_back(memRefOf(ops.back()));
        if (!ops.empty()) {
          const ValueInfo* src = info(ops[0]);
          ops::PipeOperands spaces;
          spaces.src = src ? src->space : MemSpace::None;
          spaces.dst = MemSpace::GM;
          m.pipes = ops::resolvePipes(*row, spaces);
        }
        break;
      case OpKind::ScalarLoad:  // %ptr[%idx]
        if (!ops.empty()) m.reads.push_back(scalarRef(ops[0], ops.size() > 1 ? ops[1] : ""));
        break;
      case OpKind::ScalarStore:  // %value, %ptr[%idx]
        if (ops.size() > 1) m.writes.push_back(scalarRef(ops[1], ops.size() > 2 ? ops[2] : ""));
        break;
      case OpKind::SetFlag:
      case OpKind::WaitFlag:
      case OpKind::PipeBarrier:
        liftIntraCoreSync(op, *row, m);
        break;
      case OpKind::Fence:
        for (const auto& t : op.tokens)
          if (t.kind == Tok::Attr && t.text.find("fence_scope") != std::string::npos)
            m.fenceScope = fenceScopeOf(angleBody(t.text));
        break;
      case OpKind::CacheInvalidate:
        m.invalidateAll = op.hasWord("all");
        if (!m.invalidateAll && !ops.empty()) m.target = lineRef(ops[0]);
        break;
      case OpKind::Notify:
      case OpKind::Wait:
      case OpKind::Test:
        if (!ops.empty()) m.target = memRefOf(ops[0]);
        break;
      case OpKind::Put:
      case OpKind::Get:
        return liftStaged(op, *row, std::move(m), seq), false;
      case OpKind::Collective:
        for (size_t i = 0; i < ops.size(); ++i) {
          MemRef r = memRefOf(ops[i]);
          if (r.space == MemSpace::GM) m.writes.push_back(r);
        }
        break;
      case OpKind::CrossCoreSet:
      case OpKind::CrossCoreWait:
        m.event.src = firstPipe(op);
        for (const auto& t : op.tokens)
          if (t.kind == Tok::Integer) {
            m.event.id = integer(op, t.text);
            break;
          }
        break;
      case OpKind::SyncAll:
        m.syncMode = syncModeFromName(angleBody(op.attr("mode")));
        m.coreType = coreTypeFromName(angleBody(op.attr("core_type")));
        break;
      case OpKind::TileAlloc:
      case OpKind::TileAssign:
        liftTile(op, m);
        break;
      case OpKind::Call:
        m.callee = op.symbol;
        if (op.symbol.rfind("CommRemoteOffset", 0) == 0) {
          ValueInfo v;
          v.peerOffset = true;
          defineResults(op, v);
        }
        break;
      case OpKind::Branch:
        m.successors = op.successors;
        break;
      case OpKind::Compute:
        liftCompute(op, *row, m);
        break;
      default:
        break;
    }
    return true;
  }

  // ins(%src : T) outs(%dst : T)
  void liftTransfer(const mlir::Op& op, Op& m) {
    const auto& ops = op.operands;
    if (!ops.empty()) m.reads.push_back(memRefOf(ops[0]));
    if (ops.size() > 1) m.writes.push_back(tileRef(ops[1]));
    std::string policy = op.attr("cache_policy");
    if (!policy.empty()) m.cachePolicy = cachePolicyFromName(angleBody(policy));
    auto off = op.keywords.find("offset");
    if (off != op.keywords.end()) {
      m.offsetValue = off->second;
      const ValueInfo* v = info(off->second);
      m.offsetParam = (v && v->expr && v->expr->kind == Expr::Kind::Param) ? v->expr->paramIndex : -1;
    }
  }

  // [dst, src, staging tile...]: each phase's access on its own pipe (the registry's hidden
  // accesses and internal events).
  void liftStaged(const mlir::Op& op, const ops::OpRow& row, Op m, Stmt& seq) {
    const auto& ops = op.operands;
    std::vector<MemRef> refs;
    for (size_t i = 0; i < ops.size() && i < 4; ++i) {
      const ValueInfo* v = info(ops[i]);
      refs.push_back(i < 2 ? memRefOf(ops[i]) : v && v->isTile ? tileRef(ops[i]) : MemRef{});
    }
    std::vector<const MemRef*> operands;
    for (const MemRef& r : refs) operands.push_back(r.valid() ? &r : nullptr);
    for (Op& phase : ops::stagedOps(row, operands, std::move(m))) seq.children.push_back(Stmt::opStmt(std::move(phase)));
  }

  // ins(...) are read, outs(...) written; ops without the groups read every tile operand.
  void liftCompute(const mlir::Op& op, const ops::OpRow& in, Op& m) {
    std::vector<std::string> ins = groupOperands(op, "ins"), outs = groupOperands(op, "outs");
    if (ins.empty() && outs.empty()) ins = op.operands;
    // The tmp tile of an instruction that has one is the last of `ins` past its sources:
    // scratch the instruction writes (TCI's tmp overload, A2/A3 TTRANS).
    int tileIns = 0;
    for (const auto& o : ins)
      if (const ValueInfo* v = info(o); v && v->isTile) ++tileIns;
    ops::PipeOperands operands;
    operands.hasTmp = in.tmp >= 0 && tileIns > in.tileSources;
    int seen = 0;
    std::string tmp;
    for (const auto& o : ins)
      if (const ValueInfo* v = info(o); v && v->isTile) {
        if (operands.hasTmp && ++seen == tileIns) tmp = o;
        else m.reads.push_back(tileRef(o));
      }
    for (const auto& o : outs)
      if (const ValueInfo* v = info(o); v && v->isTile) m.writes.push_back(tileRef(o));
    if (!tmp.empty()) {
      m.writes.push_back(tileRef(tmp));
      m.writes.back().scratch = true;
    }
    // Moves run on the pipe of their direction (L1 -> L0A/L0B on MTE1, L0C -> L1 on FIX); TCI's
    // tmp overload on V.
    operands.src = m.reads.empty() ? MemSpace::None : m.reads.front().space;
    operands.dst = m.writes.empty() ? MemSpace::None : m.writes.front().space;
    m.pipes = ops::resolvePipes(in, operands);
  }

  // The %values and integers of a `key = [...]` list of the op (strides = [%c1, %c2]).
  std::vector<ExprPtr> exprList(const mlir::Op& op, const char* key) const {
    std::vector<ExprPtr> out;
    auto it = op.keywords.find(key);
    if (it == op.keywords.end()) return out;
    std::istringstream words(it->second);
    for (std::string w; words >> w;) {
      if (w == "[" || w == "]" || w == ",") continue;
      if (!w.empty() && w.back() == ',') w.pop_back();
      if (w.empty()) continue;
      if (w[0] == '%')
        out.push_back(exprOf(w));
      else if (auto c = parseInt(w))
        out.push_back(Expr::constant(*c));
      else
        out.push_back(Expr::unknown(w));
    }
    return out;
  }

  // The element type of the op's last pointer type (`-> !pto.ptr<i32, gm>` -> i32).
  static std::string pointerElementType(const mlir::Op& op) {
    std::vector<std::string> types = typeTokens(op);
    for (auto t = types.rbegin(); t != types.rend(); ++t) {
      if (t->rfind("!pto.ptr<", 0) != 0) continue;
      size_t end = t->find_first_of(",>", 9);
      return end == std::string::npos ? "" : t->substr(9, end - 9);
    }
    return "";
  }

  // The element type of the op's tensor-view result type (`!pto.tensor_view<?x?xi32>` -> i32).
  static std::string viewElementType(const mlir::Op& op) {
    for (const auto& t : typeTokens(op)) {
      if (t.rfind("!pto.tensor_view<", 0) != 0) continue;
      size_t x = t.rfind('x'), end = t.find_first_of(",>", x == std::string::npos ? 0 : x);
      if (x != std::string::npos && end != std::string::npos) return t.substr(x + 1, end - x - 1);
    }
    return "";
  }

  // Where a partition of a view starts, in bytes from the view's parameter base:
  // base + sum(offset_d * stride_d) * element size; null when a part is not known.
  ExprPtr partitionStart(const mlir::Op& op, const ValueInfo& view) const {
    std::vector<ExprPtr> offsets = exprList(op, "offsets");
    if (!view.byteBase || view.elemBytes <= 0 || offsets.empty() || offsets.size() != view.strides.size())
      return nullptr;
    ExprPtr elements = Expr::constant(0);
    for (size_t d = 0; d < offsets.size(); ++d)
      elements = Expr::binary(Expr::Kind::Add, elements, Expr::binary(Expr::Kind::Mul, offsets[d], view.strides[d]));
    return Expr::binary(Expr::Kind::Add, view.byteBase,
                        Expr::binary(Expr::Kind::Mul, elements, Expr::constant(view.elemBytes)));
  }

  // offsets = [...], sizes = [...] of a partition_view, added to the base partition's offsets.
  void partitionBox(const mlir::Op& op, ValueInfo& v) const {
    auto list = [&](const char* key) {
      std::vector<ExprPtr> out;
      const std::string text = op.attr(key);
      // Its words, split at white space (a stream per list was a third of this function).
      static constexpr const char* kSpace = " \t\n\v\f\r";
      for (size_t b = text.find_first_not_of(kSpace); b != std::string::npos; b = text.find_first_not_of(kSpace, b)) {
        size_t e = std::min(text.find_first_of(kSpace, b), text.size());
        std::string_view item(text.data() + b, e - b);
        b = e;
        if (item[0] == '%') out.push_back(exprOf(std::string(item)));
        else if (std::isdigit(static_cast<unsigned char>(item[0])))
          if (auto n = integer(op, item)) out.push_back(Expr::constant(*n));
      }
      return out;
    };
    std::vector<ExprPtr> offsets = list("offsets"), sizes = list("sizes");
    if (offsets.empty() || offsets.size() != sizes.size() || v.view.empty()) {
      v.view.clear();
      v.offsets.clear();
      v.sizes.clear();
      return;
    }
    if (v.offsets.size() == offsets.size())
      for (size_t d = 0; d < offsets.size(); ++d) offsets[d] = Expr::binary(Expr::Kind::Add, v.offsets[d], offsets[d]);
    v.offsets = std::move(offsets);
    v.sizes = std::move(sizes);
  }

  // The element `ptr[idx]` of a scalar GM access, with its bytes (MemRef::byteStart).
  MemRef scalarRef(const std::string& ptr, const std::string& idx) const {
    MemRef m = memRefOf(ptr);
    const ValueInfo* p = info(ptr);
    if (!p || !p->byteBase || p->elemBytes <= 0) return m;
    m.byteSize = p->elemBytes;
    m.byteStart = idx.empty() ? p->byteBase
                              : Expr::binary(Expr::Kind::Add, p->byteBase,
                                             Expr::binary(Expr::Kind::Mul, exprOf(idx), Expr::constant(p->elemBytes)));
    std::optional<int64_t> lo, hi;
    if (eachValue(m.byteStart, [&](int64_t at) {
          lo = std::min(lo.value_or(at), at);
          hi = std::max(hi.value_or(at), at);
          return true;
        }))
      m.byteRange = std::make_pair(*lo, *hi + m.byteSize);
    return m;
  }

  // The 64-byte line a single-line invalidate of `v` drops: the one holding v's first byte.
  MemRef lineRef(const std::string& v) const {
    MemRef m = memRefOf(v);
    const ValueInfo* p = info(v);
    if (!p || !p->byteBase) return m;
    m.byteStart = p->byteBase;
    m.byteSize = kCacheLineBytes;
    std::optional<int64_t> line;
    bool one = eachValue(m.byteStart, [&](int64_t at) {
      int64_t l = cacheLineStart(at);
      if (line && *line != l) return false;
      line = l;
      return true;
    });
    if (one && line) m.byteRange = std::make_pair(*line, *line + kCacheLineBytes);
    return m;
  }

  // Calls `visit` with the value of `e` in each iteration of the enclosing loops (once when it
  // does not depend on them); false when a value or a loop bound is not known, or `visit` says so.
  bool eachValue(const ExprPtr& e, const std::function<bool(int64_t)>& visit) const {
    if (!e) return false;
    if (auto c = evalConst(e)) return visit(*c);
    return eachIteration([&](const std::function<ExprPtr(const Expr&)>& atIteration) {
      auto c = evalConst(substitute(e, atIteration));
      return c && visit(*c);
    });
  }

  MemRef tileRef(const std::string& v) const {
    MemRef m = memRefOf(v);
    m.param = -1;
    if (m.space == MemSpace::GM) m.space = MemSpace::UB;
    return m;
  }

  // Calls `visit` with a leaf substitution for each iteration of the enclosing loops (their
  // counters as constants), while it returns true; false when a loop's bounds are not constants
  // or there are more than 256 iterations.
  bool eachIteration(const std::function<bool(const std::function<ExprPtr(const Expr&)>&)>& visit) const {
    int64_t total = 1;
    for (const Loop& l : loops_) {
      if (!l.lb || !l.ub || !l.step || *l.step <= 0) return false;
      int64_t n = *l.ub > *l.lb ? (*l.ub - *l.lb + *l.step - 1) / *l.step : 0;
      if (n > 256 || (total *= std::max<int64_t>(n, 1)) > 256) return false;
    }
    std::vector<int64_t> at(loops_.size());
    for (size_t i = 0; i < loops_.size(); ++i) at[i] = *loops_[i].lb;
    for (;;) {
      auto leaf = [&](const Expr& e) -> ExprPtr {
        if (e.kind == Expr::Kind::LoopVar)
          for (size_t i = 0; i < loops_.size(); ++i)
            if (loops_[i].var == e.name) return Expr::constant(at[i]);
        return nullptr;
      };
      if (!visit(leaf)) return false;
      size_t k = loops_.size();
      while (k > 0 && (at[k - 1] += *loops_[k - 1].step) >= *loops_[k - 1].ub) {
        at[k - 1] = *loops_[k - 1].lb;
        --k;
      }
      if (k == 0) return true;
    }
  }

  // `pto.multi_tile_get %m[%k]`: slot k of the buffer, a view of its bytes [k * slot, (k + 1) *
  // slot). A slot chosen at run time is, per iteration of loops with constant bounds, the slot
  // of that iteration, else any of them. A buffer the lifter did not read is a gap.
  void liftSlotView(const mlir::Op& op) {
    const ValueInfo* buffer = op.operands.empty() ? nullptr : info(op.operands[0]);
    if (!buffer || buffer->slotCount <= 0 || op.operands.size() < 2) {
      k_.gaps.push_back(ModelGap{ModelGap::Kind::OpaqueOp, op.loc,
                                 "'pto.multi_tile_get' of a buffer whose slots are not known"});
      return;
    }
    ValueInfo v = *buffer;
    v.expr = nullptr;
    v.root = buffer->root.empty() ? op.operands[0] : buffer->root;
    v.viewBytes = buffer->slotBytes;
    v.tileBytes = buffer->slotBytes;
    v.slotBytes = v.slotCount = 0;
    v.viewOffset.reset();
    v.viewOffsetChoices.clear();
    v.viewOffsetPerIteration.clear();
    v.viewLoops.clear();
    v.viewLines = 1, v.viewStride = 0, v.viewLineBytes = 0;
    const int64_t base = buffer->viewOffset.value_or(0);
    auto slotAt = [&](std::optional<int64_t> k) -> std::optional<int64_t> {
      if (!k || *k < 0 || *k >= buffer->slotCount) return std::nullopt;
      return base + *k * buffer->slotBytes;
    };
    ExprPtr k = exprOf(op.operands[1]);
    // The slot's bytes as an expression of the loop counters, for the race proofs: two
    // iterations that take different slots touch different bytes (MemRef::offsets of a tile).
    v.view.clear();
    v.offsets = {Expr::binary(Expr::Kind::Add, Expr::constant(base),
                              Expr::binary(Expr::Kind::Mul, k, Expr::constant(buffer->slotBytes)))};
    v.sizes = {Expr::constant(buffer->slotBytes)};
    std::vector<int64_t> choices;
    bool each = eachValue(k, [&](int64_t slot) {
      auto at = slotAt(slot);
      if (!at) return false;
      if (std::find(choices.begin(), choices.end(), *at) == choices.end()) choices.push_back(*at);
      return true;
    });
    if (!each || choices.empty()) {
      choices.clear();
      for (int64_t i = 0; i < buffer->slotCount; ++i) choices.push_back(base + i * buffer->slotBytes);
    }
    if (each && evalConst(k)) v.viewOffset = choices.front();
    else v.viewOffsetChoices = choices;
    defineResults(op, v);
  }

  // An elementwise op walks a tile's elements row by row when its layout is plain row-major and
  // the whole tile is valid.
  static void setElementOrder(ValueInfo& v, const TileType& t) {
    bool plain = !t.colMajor && !t.boxed && !t.partlyValid && t.elemBytes > 0 && t.cols > 0;
    v.tileElemBytes = plain ? t.elemBytes : 0;
    v.tileRowElements = plain ? t.cols : 0;
    v.tileFullyValid = !t.partlyValid;
  }

  // %v = pto.subview %t[%r, %c] sizes [R, C] ... : T -> V, and pto.treshape / bitcast / reshape of
  // a tile: a view of the root tile's bytes, so every access through it is an access of the
  // root (sync-pipe-race, ub-range). A subview at constant offsets of a plain row- or
  // column-major tile covers a known byte range of it; otherwise it may lie anywhere in the root.
  void liftTileView(const mlir::Op& op, bool subview) {
    const std::string& base = op.operands[0];
    ValueInfo v = *info(base);
    v.expr = nullptr;
    // The view's own type says how its elements are walked (a reshape changes the rows).
    std::vector<std::string> viewTypes = typeTokens(op);
    std::optional<TileType> own = viewTypes.empty() ? std::nullopt : parseTileType(viewTypes.back());
    if (own) setElementOrder(v, *own);
    else v.tileElemBytes = 0, v.tileRowElements = 0, v.tileFullyValid = false;
    bool rooted = !v.root.empty();
    if (!rooted) {
      v.root = base;
      v.viewOffset = 0;
      v.viewBytes = v.tileBytes;
    }
    if (subview) {
      std::vector<std::string> types = typeTokens(op);
      std::optional<TileType> whole = types.empty() ? std::nullopt : parseTileType(types.front());
      std::optional<TileType> part = types.size() < 2 ? std::nullopt : parseTileType(types.back());
      std::vector<std::string> at = bracketList(op);
      // Where rows [r, r + R) x columns [c, c + C) lie: element (r, c) of a row-major tile is
      // at r * cols + c, of a column-major one at c * rows + r. The view is `lines` lines of
      // `width` elements, `stride` elements apart.
      const int64_t parentBytes = v.viewBytes;
      const bool geometry = whole && part && whole->elemBytes > 0;
      const int64_t stride = !geometry ? 0 : whole->colMajor ? whole->rows : whole->cols;
      const int64_t lines = !geometry ? 0 : whole->colMajor ? part->cols : part->rows;
      const int64_t width = !geometry ? 0 : whole->colMajor ? part->rows : part->cols;
      auto window = [&](int64_t row, int64_t col) -> std::optional<std::pair<int64_t, int64_t>> {
        if (!geometry || whole->boxed || part->rows <= 0 || part->cols <= 0) return {};
        int64_t major = whole->colMajor ? col : row, minor = whole->colMajor ? row : col;
        int64_t first = 0, last = 0;
        if (__builtin_mul_overflow(major, stride, &first) || __builtin_add_overflow(first, minor, &first) ||
            __builtin_mul_overflow(lines - 1, stride, &last) || __builtin_add_overflow(last, width, &last) ||
            __builtin_mul_overflow(first, int64_t(whole->elemBytes), &first) ||
            __builtin_mul_overflow(last, int64_t(whole->elemBytes), &last) || first < 0 || first + last > parentBytes)
          return {};
        return std::make_pair(first, last);
      };
      // Lines of the window inside the root: strided unless the view spans whole lines.
      v.viewLines = 1, v.viewStride = 0, v.viewLineBytes = 0;
      v.viewOffsetChoices.clear();
      v.viewOffsetPerIteration.clear();
      v.viewLoops.clear();
      if (!rooted && geometry && lines > 1 && width < stride && lines <= 4096) {
        v.viewLines = lines;
        v.viewStride = stride * whole->elemBytes;
        v.viewLineBytes = width * whole->elemBytes;
      }
      std::optional<int64_t> row, col;
      if (at.size() == 2) row = evalConst(exprOf(at[0])), col = evalConst(exprOf(at[1]));
      // A view of a view: its rows are strided by the root's width, not the parent type's.
      std::optional<std::pair<int64_t, int64_t>> exact = !rooted && row && col ? window(*row, *col) : std::nullopt;
      v.viewOffset.reset();  // unless known: somewhere in the root
      v.viewBytes = 0;
      if (exact) {
        v.viewOffset = exact->first;
        v.viewBytes = exact->second;
      } else if (!rooted && at.size() == 2) {
        // Offsets computed from the loop counters: the window of each iteration, when the loops
        // have constant bounds and few iterations (one op's own accesses are then decided per
        // iteration, rules/tile_values.cpp).
        std::vector<std::pair<int64_t, int64_t>> windows;
        if (eachIteration([&](const std::function<ExprPtr(const Expr&)>& at_iteration) {
              auto r = evalConst(substitute(exprOf(at[0]), at_iteration));
              auto c = evalConst(substitute(exprOf(at[1]), at_iteration));
              auto w = r && c ? window(*r, *c) : std::nullopt;
              if (!w) return false;
              windows.push_back(*w);
              return true;
            }) &&
            !windows.empty()) {
          v.viewBytes = windows.front().second;
          for (const auto& w : windows) {
            v.viewOffsetPerIteration.push_back(w.first);
            if (std::find(v.viewOffsetChoices.begin(), v.viewOffsetChoices.end(), w.first) == v.viewOffsetChoices.end())
              v.viewOffsetChoices.push_back(w.first);
          }
          for (const Loop& l : loops_) v.viewLoops.push_back(l.var);
        }
      }
    }
    defineResults(op, v);
  }

  // set_flag / wait_flag (.pto and hivm.hir spell them alike) and pipe_barrier.
  void gap(ModelGap g) override { k_.gaps.push_back(std::move(g)); }

  void liftIntraCoreSync(const mlir::Op& op, const ops::OpRow& row, Op& m) override {
    if (m.kind != OpKind::PipeBarrier) return liftEvent(op, row, m);
    m.barrierPipe = firstPipe(op);
    ops::PipeOperands named;
    named.named = m.barrierPipe;
    m.pipes = ops::resolvePipes(row, named);
  }

  // [src, dst, event]: pipes, or for the spellings that take them PTOAS op types (TLOAD, ...).
  void liftEvent(const mlir::Op& op, const ops::OpRow& row, Op& m) {
    std::vector<std::string> items = bracketList(op);
    bool byOpType = std::find(row.byOpType.begin(), row.byOpType.end(), op.name) != row.byOpType.end();
    if (items.size() < 3) {
      note(op, "'" + op.name + "': could not read its [src, dst, event] list; the event is not modelled");
      return;
    }
    m.event.src = byOpType ? ops::syncTypePipe(items[0]) : pipeFromName(items[0]);
    m.event.dst = byOpType ? ops::syncTypePipe(items[1]) : pipeFromName(items[1]);
    ops::PipeOperands ends;
    ends.eventSrc = m.event.src;
    ends.eventDst = m.event.dst;
    m.pipes = ops::resolvePipes(row, ends);
    const std::string& id = items[2];
    if (id.rfind("EVENT_ID", 0) == 0) {
      m.event.id = parseInt(id.substr(8));
    } else if (!id.empty() && id[0] == '%') {
      m.event.idExpr = exprOf(id);
      m.event.id = evalConst(m.event.idExpr);  // else symbolic: the proofs reason per iteration
    }
    if (m.event.src == Pipe::Unknown || m.event.dst == Pipe::Unknown)
      note(op, "'" + op.name + "': unknown pipe in [" + items[0] + ", " + items[1] + "]");
  }

  void liftTile(const mlir::Op& op, Op& m) {
    std::vector<std::string> types = typeTokens(op);
    std::optional<TileType> tt;
    for (const auto& t : types)
      if ((tt = parseTileType(t))) break;
    ValueInfo v;
    v.isTile = true;
    if (tt) {
      v.space = tt->space;
      v.tileBytes = tt->bytes;
      setElementOrder(v, *tt);
    }
    for (const auto& t : types)
      if (auto multi = parseMultiTileType(t)) {  // one buffer of its slots, back to back
        v.space = multi->slot.space;
        v.slotBytes = multi->slot.bytes;
        v.slotCount = multi->count;
        v.tileBytes = multi->slot.bytes * multi->count;
        break;
      }
    std::string addrValue;
    if (m.kind == OpKind::TileAlloc) {
      auto a = op.keywords.find("addr");
      if (a != op.keywords.end()) addrValue = a->second;
    } else if (op.operands.size() >= 2) {
      addrValue = op.operands[1];
      if (const ValueInfo* old = info(op.operands[0])) {
        if (!tt) {
          v.space = old->space;
          v.tileBytes = old->tileBytes;
        }
      }
    }
    if (!addrValue.empty()) v.tileAddr = evalConst(exprOf(addrValue));
    if (!addrValue.empty() && !v.tileAddr) m.tileAddrChoices = possibleConstants(exprOf(addrValue));
    m.tileValue = op.results.empty() ? (op.operands.empty() ? "" : op.operands[0]) : op.results[0];
    // Sibling regions reuse SSA names (PyPTO's fusion regions each define their own %292): a
    // tile whose name is taken gets its own identity, so two tiles are never one by spelling.
    if (!op.results.empty() && tileNames_.count(m.tileValue)) {
      v.root = m.tileValue + "@" + std::to_string(op.loc.line);
      for (int k = 2; tileNames_.count(v.root); ++k)
        v.root = m.tileValue + "@" + std::to_string(op.loc.line) + "." + std::to_string(k);
      v.viewOffset = 0;
      v.viewBytes = v.tileBytes;
      v.ownIdentity = true;
      m.tileValue = v.root;
    }
    tileNames_.insert(m.tileValue);
    m.tileSpace = v.space;
    m.tileAddr = v.tileAddr;
    m.tileBytes = v.tileBytes;
    defineResults(op, v);
    if (!addrValue.empty() && !v.tileAddr && m.tileAddrChoices.empty())
      note(op, "tile address '" + addrValue + "' is not a constant; its range is not checked");
  }

  void liftFor(const mlir::Op& op, Stmt& seq) {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::For;
    s->loc = op.loc;
    const auto& ops = op.operands;
    if (ops.size() >= 4) {
      s->var = ops[0];
      s->lb = exprOf(ops[1]);
      s->ub = exprOf(ops[2]);
      s->step = exprOf(ops[3]);
      ValueInfo iv;
      iv.expr = Expr::loopVar(ops[0]);
      values_[ops[0]] = iv;
      // iter_args(%a = %init, ...): carried values start as their inits.
      for (size_t i = 4; i + 1 < ops.size(); i += 2)
        if (const ValueInfo* init = info(ops[i + 1])) {
          ValueInfo carried = *init;
          carried.expr = nullptr;
          values_[ops[i]] = carried;
        }
    }
    auto constant = [](const ExprPtr& e) { return e ? evalConst(e) : std::nullopt; };
    loops_.push_back({s->var, constant(s->lb), constant(s->ub), constant(s->step)});
    s->children.push_back(op.regions.empty() ? Stmt::seq() : liftRegion(op.regions[0]));
    loops_.pop_back();
    // Results of a loop with iter_args keep the origin of their initial values.
    for (size_t r = 0; r < op.results.size() && 5 + 2 * r < ops.size(); ++r)
      if (const ValueInfo* init = info(ops[5 + 2 * r])) {
        ValueInfo v = *init;
        v.expr = Expr::unknown(op.results[r]);
        values_[op.results[r]] = v;
      }
    seq.children.push_back(std::move(s));
  }

  void liftIf(const mlir::Op& op, Stmt& seq) {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::If;
    s->loc = op.loc;
    s->cond = op.operands.empty() ? Expr::unknown("cond") : exprOf(op.operands[0]);
    s->children.push_back(op.regions.size() > 0 ? liftRegion(op.regions[0]) : Stmt::seq());
    s->children.push_back(op.regions.size() > 1 ? liftRegion(op.regions[1]) : Stmt::seq());
    defineIfResults(op, s->cond);
    seq.children.push_back(std::move(s));
  }

  // %r = scf.if %c -> (T) { scf.yield %a } else { scf.yield %b }: %r is select(%c, %a, %b),
  // and keeps a pointer origin when both branches yield the same one.
  void defineIfResults(const mlir::Op& op, const ExprPtr& cond) {
    if (op.results.empty() || op.regions.size() < 2) return;
    auto yielded = [](const mlir::Region& r) -> const mlir::Op* {
      if (r.blocks.empty() || r.blocks.back().ops.empty()) return nullptr;
      const mlir::Op& last = r.blocks.back().ops.back();
      return last.name == "scf.yield" ? &last : nullptr;
    };
    const mlir::Op* a = yielded(op.regions[0]);
    const mlir::Op* b = yielded(op.regions[1]);
    if (!a || !b) return;
    for (size_t i = 0; i < op.results.size() && i < a->operands.size() && i < b->operands.size(); ++i) {
      ValueInfo v;
      const ValueInfo* ia = info(a->operands[i]);
      const ValueInfo* ib = info(b->operands[i]);
      if (ia && ib && ia->param == ib->param && ia->peer == ib->peer && ia->space == ib->space) {
        v = *ia;
      }
      v.expr = Expr::select(cond, exprOf(a->operands[i]), exprOf(b->operands[i]));
      values_[op.results[i]] = v;
    }
  }

  // %r = pto.fusion_region { ... pto.yield(%t) } : T: %r is the value the single region yields;
  // a yielded tile is the same tile (a view of all of it), whatever later regions call %t.
  void defineYieldedResults(const mlir::Op& op) {
    if (op.results.empty() || op.regions.size() != 1) return;
    const mlir::Region& r = op.regions[0];
    if (r.blocks.empty() || r.blocks.back().ops.empty()) return;
    const mlir::Op& last = r.blocks.back().ops.back();
    if (last.name != "pto.yield" && last.name != "scf.yield") return;
    for (size_t i = 0; i < op.results.size() && i < last.operands.size(); ++i) {
      const ValueInfo* y = info(last.operands[i]);
      if (!y) continue;
      ValueInfo v = *y;
      if (v.isTile && v.root.empty()) {
        v.root = last.operands[i];
        v.viewOffset = 0;
        v.viewBytes = v.tileBytes;
      }
      values_[op.results[i]] = v;
    }
  }

  void liftWhile(const mlir::Op& op, Stmt& seq) {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::While;
    s->loc = op.loc;
    s->cond = Expr::unknown("while");
    s->children.push_back(op.regions.size() > 0 ? liftRegion(op.regions[0]) : Stmt::seq());
    s->children.push_back(op.regions.size() > 1 ? liftRegion(op.regions[1]) : Stmt::seq());
    seq.children.push_back(std::move(s));
  }

  Kernel& k_;
  std::vector<InputDiagnostic>& diags_;
  std::map<std::string, ValueInfo> values_;
  hivm::OpLifter hivm_{*this};  // the HIVM-only ops
  std::set<std::string> tileNames_;  // identities given to tiles so far
  // The scf.for loops around the op being lifted, with their bounds when constant.
  struct Loop {
    std::string var;
    std::optional<int64_t> lb, ub, step;
  };
  std::vector<Loop> loops_;
};

void collectFunctions(const std::vector<mlir::Op>& ops, const std::string& arch,
                      std::vector<std::pair<const mlir::Op*, std::string>>& out) {
  for (const auto& op : ops) {
    if (op.name == "func.func") {
      out.push_back({&op, arch});
    } else if (op.name == "module" || op.name == "builtin.module") {
      std::string a = normalizeArch(op.attr("pto.target_arch"));
      if (a.empty() && op.attrs.count("hacc.target")) a = hivm::archOfTarget(op.attr("hacc.target"));
      for (const auto& r : op.regions)
        for (const auto& b : r.blocks) collectFunctions(b.ops, a.empty() ? arch : a, out);
    }
  }
}

// pto.kernel_kind<vector|cube|mix>, or HIVM's hivm.func_core_type<AIV|AIC|MIX>.
KernelKind kernelKind(const mlir::Op& fn) {
  static const std::map<std::string, KernelKind, std::less<>> kinds = {
      {"vector", KernelKind::Vector}, {"cube", KernelKind::Cube}, {"mix", KernelKind::Mix},
      {"AIV", KernelKind::Vector},    {"AIC", KernelKind::Cube},  {"MIX", KernelKind::Mix}};
  std::string k = fn.attr("pto.kernel_kind");
  auto it = kinds.find(angleBody(k.empty() ? fn.attr("hivm.func_core_type") : k));
  return it == kinds.end() ? KernelKind::Unknown : it->second;
}

}  // namespace

std::vector<Kernel> lift(const mlir::ParsedFile& file, const LiftOptions& opts,
                         std::vector<InputDiagnostic>& diags) {
  std::vector<Kernel> kernels;
  for (const auto& split : file.splits) {
    std::vector<std::pair<const mlir::Op*, std::string>> fns;
    collectFunctions(split.ops, "", fns);
    for (const auto& [fn, arch] : fns) {
      if (fn->regions.empty()) continue;  // declaration
      Kernel k;
      k.name = fn->symbol;
      k.arch = arch.empty() ? opts.defaultArch : arch;
      k.kind = kernelKind(*fn);
      k.isEntry = fn->attrs.count("pto.entry") || fn->attrs.count("pto.kernel") ||
                  fn->attrs.count("hacc.entry") || fn->attrs.count("pto.aicore");
      k.loc = fn->loc;
      k.file = file.path;
      for (const auto& t : fn->tokens) k.fftsArg |= t.text.find("ffts_base_address") != std::string::npos;
      FunctionLifter fl(k, diags);
      fl.liftSignature(*fn);
      k.body = fl.liftRegion(fn->regions[0]);
      kernels.push_back(std::move(k));
    }
  }
  return kernels;
}

}  // namespace ptov::pto
