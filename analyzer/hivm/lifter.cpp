#include "analyzer/hivm/lifter.h"

#include <cctype>
#include <climits>
#include <set>

#include "analyzer/hivm/op_table.h"
#include "analyzer/numbers.h"

namespace ptov::hivm {

using mlir::angleBody;
using mlir::elementBytes;
using mlir::Tok;
using mlir::ValueInfo;

bool OpLifter::isMemrefAlias(const std::string& n) {
  static const std::set<std::string> aliases = {
      "memref.subview",           "memref.view",         "memref.reinterpret_cast", "memref.cast",
      "memref.collapse_shape",    "memref.expand_shape", "memref.reshape",          "memref.transpose",
      "memref.memory_space_cast", "hivm.hir.bitcast",    "bufferization.to_tensor", "bufferization.to_memref",
      "tensor.extract_slice"};
  return aliases.count(n) > 0;
}

// Bytes of a `memref<4x16xf32, ...>` type; 0 when a dimension is dynamic.
int64_t OpLifter::memrefBytes(const std::string& type) {
  auto lt = type.find('<');
  if (type.rfind("memref<", 0) != 0 || lt == std::string::npos) return 0;
  std::string body = type.substr(lt + 1);
  body = body.substr(0, body.find_first_of(",>"));
  int64_t count = 1;
  size_t start = 0;
  for (size_t x = body.find('x'); x != std::string::npos; x = body.find('x', start)) {
    std::string dim = body.substr(start, x - start);
    auto n = dim.empty() || !std::isdigit(static_cast<unsigned char>(dim[0])) ? std::nullopt : parseInt(dim);
    // A size that does not fit is unknown (0), never a wrapped small one.
    if (!n || __builtin_mul_overflow(count, *n, &count)) return 0;
    start = x + 1;
  }
  int bytes = elementBytes(body.substr(start));
  int64_t total = 0;
  return bytes > 0 && !__builtin_mul_overflow(count, int64_t(bytes), &total) ? total : 0;
}

std::string OpLifter::firstMemrefType(const mlir::Op& op) {
  for (const auto& t : typeTokens(op))
    if (t.rfind("memref<", 0) == 0) return t;
  return "";
}

void OpLifter::noteOnce(const mlir::Op& op, const std::string& key, const std::string& msg) {
  if (noted_.insert(key).second) cx_.note(op, msg);
}

bool OpLifter::lift(const mlir::Op& op, Stmt& seq) {
  const std::string& n = op.name;
  // Everything below is in these dialects (a .pto op is rejected without the comparisons).
  size_t dot = n.find('.');
  std::string_view dialect = dot == std::string::npos ? std::string_view() : std::string_view(n).substr(0, dot);
  if (dialect != "hivm" && dialect != "memref" && dialect != "annotation" && dialect != "bufferization" &&
      dialect != "tensor")
    return false;
  const auto& ops = op.operands;
  if (n == "annotation.mark" || n == "hivm.hir.anchor" || n == "hivm.hir.set_ctrl" || n == "hivm.hir.set_mask_norm" ||
      n == "hivm.hir.debug")
    return true;
  if (n == "hivm.hir.get_sub_block_idx") return cx_.defineUnknown(op), true;  // which vector core of the pair
  if (isMemrefAlias(n)) {
    if (!ops.empty()) {
      ValueInfo v = cx_.info(ops[0]) ? *cx_.info(ops[0]) : ValueInfo{};
      if (v.root.empty()) v.root = ops[0];
      v.expr = nullptr;
      cx_.defineResults(op, v);
    }
    return true;
  }
  if (n == "memref.alloc" || n == "memref.alloca" || n == "hivm.hir.pointer_cast") {
    std::string type = firstMemrefType(op);
    ValueInfo v;
    v.isTile = true;
    v.space = addressSpace(type);
    if (v.space == MemSpace::None) v.space = MemSpace::UB;
    v.tileBytes = memrefBytes(type);
    Op m;
    m.kind = OpKind::TileAlloc;
    m.name = n;
    m.dialect = dialectOfMlirName(n);
    m.loc = op.loc;
    m.tileValue = op.results.empty() ? "" : op.results[0];
    m.tileSpace = v.space;
    m.tileBytes = v.tileBytes;
    // pointer_cast(%off) places the buffer; pointer_cast(%off0, %off1) is a multi-buffer
    // whose slot k is used in iteration k mod n.
    std::vector<int64_t> offsets;
    for (const auto& o : ops)
      if (auto c = evalConst(cx_.exprOf(o))) offsets.push_back(*c);
    if (n == "hivm.hir.pointer_cast" && offsets.size() == ops.size() && !offsets.empty()) {
      if (offsets.size() == 1)
        m.tileAddr = v.tileAddr = offsets[0];
      else
        m.tileAddrChoices = offsets;
    }
    cx_.defineResults(op, v);
    if (m.tileAddr || !m.tileAddrChoices.empty()) seq.children.push_back(Stmt::opStmt(std::move(m)));
    return true;
  }
  if (n == "memref.load" || n == "memref.store") {
    Op m;
    m.kind = n == "memref.load" ? OpKind::ScalarLoad : OpKind::ScalarStore;
    m.name = n;
    m.dialect = dialectOfMlirName(n);
    m.loc = op.loc;
    m.pipes = {Pipe::S};
    m.uses = ops;
    m.defs = op.results;
    if (n == "memref.load" && !ops.empty()) m.reads.push_back(cx_.memRefOf(ops[0]));
    if (n == "memref.store" && ops.size() > 1) m.writes.push_back(cx_.memRefOf(ops[1]));
    if (n == "memref.load") cx_.defineResults(op, ValueInfo{});
    seq.children.push_back(Stmt::opStmt(std::move(m)));
    return true;
  }
  if (n.rfind("hivm.hir.", 0) != 0) return false;
  if (n == "hivm.hir.create_sync_block_lock" || n == "hivm.hir.sync_block_lock" || n == "hivm.hir.sync_block_unlock" ||
      n == "hivm.hir.free_lock_var") {
    noteOnce(op, "lock", "'" + n + "': GM spin-locks between blocks are not modelled; their pairing is not checked");
    return true;
  }
  if (n == "hivm.hir.custom_macro" || n == "hivm.hir.custom") {
    noteOnce(op, "custom", "'" + n + "': the sync inside custom macros (sync_event_slots) is not modelled");
    return false;  // still lifted as an op with its ins/outs
  }
  OpFacts facts = lookupOp(n);
  if (!facts.known) {  // not in the HIVM table: it may access memory and synchronise
    cx_.gap(ModelGap{ModelGap::Kind::OpaqueOp, op.loc,
                     "'" + n +
                         "' (not in the HIVM op table: what it reads, writes and synchronises is not "
                         "modelled)"});
    return true;
  }
  Op m;
  m.kind = facts.kind;
  m.name = n;
  m.dialect = Dialect::Hivm;
  m.loc = op.loc;
  m.pipes = facts.pipes;
  m.uses = ops;
  m.defs = op.results;
  m.unitFlag = op.hasWord("unit_flag_mode");
  switch (m.kind) {
    case OpKind::SetFlag:
    case OpKind::WaitFlag:
    case OpKind::PipeBarrier:
      cx_.liftIntraCoreSync(op, m);
      break;
    case OpKind::CrossCoreSet:
    case OpKind::CrossCoreWait: {
      std::vector<std::string> items = bracketList(op);  // [core type, set pipe, wait pipe]
      if (items.size() >= 3) {
        m.coreType = coreTypeFromName(items[0]);
        m.event.src = pipeFromName(items[1]);
        m.event.dst = pipeFromName(items[2]);
      }
      m.pipes = {m.kind == OpKind::CrossCoreSet ? m.event.src : m.event.dst};
      std::string flag = op.attr("flag");
      if (!flag.empty() && flag[0] == '%') {
        m.event.idExpr = cx_.exprOf(flag);
        m.event.id = evalConst(m.event.idExpr);
      } else if (!flag.empty() && std::isdigit(static_cast<unsigned char>(flag[0]))) {
        m.event.id = cx_.integer(op, flag);
      }
      m.fftsBase = !op.attr("ffts_base_addr").empty();
      std::string mode = op.attr("sync_instr_mode");
      m.syncMode = mode.empty() ? SyncMode::IntraBlock : syncModeFromName(angleBody(mode));
      break;
    }
    case OpKind::SyncAll: {
      std::vector<std::string> items = bracketList(op);  // [mode(, flag : i16)]
      m.syncMode = items.empty() ? SyncMode::None : syncModeFromName(items[0]);
      int flag = defaultSyncBlockFlag(m.syncMode);
      for (const auto& t : op.tokens)
        if (t.kind == Tok::Integer) {
          auto n = cx_.integer(op, t.text);
          flag = n && *n >= 0 && *n <= INT32_MAX ? static_cast<int>(*n) : -1;
          break;
        }
      if (flag >= 0) m.event.id = flag;
      m.fftsBase = !op.attr("ffts_base_addr").empty();
      break;
    }
    default: {
      std::vector<std::string> ins = groupOperands(op, "ins"), outs = groupOperands(op, "outs");
      for (const auto& o : ins)
        if (cx_.info(o)) m.reads.push_back(cx_.memRefOf(o));
      for (const auto& o : outs)
        if (cx_.info(o)) m.writes.push_back(cx_.memRefOf(o));
      choosePipeBySpaces(m);
      break;
    }
  }
  if (isCubeMacro(n)) return liftCubeMacro(op, std::move(m), seq), true;
  seq.children.push_back(Stmt::opStmt(std::move(m)));
  return true;
}

// copy and vbrc run on the pipe of their direction (GetPipe.cpp).
void OpLifter::choosePipeBySpaces(Op& m) {
  if (m.reads.empty() || m.writes.empty()) return;
  const MemSpace from = m.reads.front().space;
  const MemSpace to = m.writes.front().space;
  if (m.name == "hivm.hir.copy") {
    if (from == MemSpace::L0C)
      m.pipes = {Pipe::FIX};
    else if (from == MemSpace::GM && to == MemSpace::L1)
      m.pipes = {Pipe::MTE2};
    else if (from == MemSpace::UB && to == MemSpace::L1)
      m.pipes = {Pipe::MTE3};
  } else if (m.name == "hivm.hir.vbrc" && to == MemSpace::L1) {
    m.pipes = {Pipe::MTE2};
  }
}

bool OpLifter::isCubeMacro(const std::string& n) {
  return n == "hivm.hir.mmadL1" || n == "hivm.hir.mmadmxL1" || n == "hivm.hir.batchMmadL1";
}

// mmadL1's library code waits and sets events the IR passes in sync_related_args (reference
// §1.9): [MTE2->MTE1 wait A, wait B, MTE1->MTE2 set A, set B, k-loop cond, backward M->MTE1
// event 0, event 1]; -1 means none. The waits come before the macro, the sets after it.
void OpLifter::liftCubeMacro(const mlir::Op& op, Op macro, Stmt& seq) {
  std::vector<std::string> args = groupOperands(op, "sync_related_args");
  auto event = [&](OpKind kind, Pipe src, Pipe dst, const std::string& arg) {
    ExprPtr id = cx_.exprOf(arg);
    if (evalConst(id) == std::optional<int64_t>(-1)) return;
    Op e;
    e.kind = kind;
    e.dialect = macro.dialect;
    e.name = macro.name + " (library " + (kind == OpKind::SetFlag ? "set_flag" : "wait_flag") + ")";
    e.loc = op.loc;
    e.event.src = src;
    e.event.dst = dst;
    e.event.idExpr = id;
    e.event.id = evalConst(id);
    e.pipes = {kind == OpKind::SetFlag ? src : dst};
    seq.children.push_back(Stmt::opStmt(std::move(e)));
  };
  if (args.size() >= 4) {
    event(OpKind::WaitFlag, Pipe::MTE2, Pipe::MTE1, args[0]);
    event(OpKind::WaitFlag, Pipe::MTE2, Pipe::MTE1, args[1]);
  }
  seq.children.push_back(Stmt::opStmt(std::move(macro)));
  if (args.size() >= 4) {
    event(OpKind::SetFlag, Pipe::MTE1, Pipe::MTE2, args[2]);
    event(OpKind::SetFlag, Pipe::MTE1, Pipe::MTE2, args[3]);
  }
  if (args.size() >= 7)
    for (size_t i = 5; i < 7; ++i)
      if (evalConst(cx_.exprOf(args[i])) != std::optional<int64_t>(-1))
        noteOnce(op, "bwd",
                 "'" + op.name + "': the backward M -> MTE1 events passed to the library (" + args[i] +
                     ") are paired inside the library; they are not modelled");
}

}  // namespace ptov::hivm
