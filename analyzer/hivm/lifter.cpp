#include "analyzer/hivm/lifter.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <set>

#include "analyzer/numbers.h"

namespace ptov::hivm {

MemSpace addressSpace(const std::string& type) {
  auto at = type.find("address_space<");
  if (at == std::string::npos) return MemSpace::None;
  auto start = at + 14;
  auto end = type.find('>', start);
  std::string s = type.substr(start, end - start);
  using M = MemSpace;
  static const std::map<std::string, MemSpace> m = {
      {"gm", M::GM}, {"ub", M::UB}, {"cbuf", M::L1}, {"ca", M::L0A}, {"cb", M::L0B}, {"cc", M::L0C}, {"zero", M::GM},
  };
  auto it = m.find(s);
  return it == m.end() ? M::Other : it->second;
}

std::string archOfTarget(const std::string& target) {
  return target.find("Ascend950") != std::string::npos ? "a5" : "a2a3";
}

using mlir::angleBody;
using mlir::elementBytes;
using mlir::Tok;
using mlir::ValueInfo;

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

void OpLifter::liftSpecial(const mlir::Op& op, const ops::OpRow& row, Stmt& seq) {
  switch (row.lift) {
    case ops::Lift::MemrefAlias: return liftAlias(op);
    case ops::Lift::Alloc: return liftAlloc(op, false, seq);
    case ops::Lift::PointerCast: return liftAlloc(op, true, seq);
    case ops::Lift::ScalarMemory: return liftScalarMemory(op, row, seq);
    case ops::Lift::Lock:
      return noteOnce(op, "lock",
                      "'" + op.name + "': GM spin-locks between blocks are not modelled; their pairing is not checked");
    default: return;
  }
}

void OpLifter::noteCustom(const mlir::Op& op) {
  noteOnce(op, "custom", "'" + op.name + "': the sync inside custom macros (sync_event_slots) is not modelled");
}

void OpLifter::liftAlias(const mlir::Op& op) {
  const auto& ops = op.operands;
  if (ops.empty()) return;
  ValueInfo v = cx_.info(ops[0]) ? *cx_.info(ops[0]) : ValueInfo{};
  if (v.root.empty()) v.root = ops[0];
  v.expr = nullptr;
  cx_.defineResults(op, v);
}

// memref.alloc / alloca, and pointer_cast (`placed`): pointer_cast(%off) places the buffer;
// pointer_cast(%off0, %off1) is a multi-buffer whose slot k is used in iteration k mod n.
void OpLifter::liftAlloc(const mlir::Op& op, bool placed, Stmt& seq) {
  const auto& ops = op.operands;
  std::string type = firstMemrefType(op);
  ValueInfo v;
  v.isTile = true;
  v.space = addressSpace(type);
  if (v.space == MemSpace::None) v.space = MemSpace::UB;
  v.tileBytes = memrefBytes(type);
  Op m;
  m.kind = OpKind::TileAlloc;
  m.name = op.name;
  m.dialect = dialectOfMlirName(op.name);
  m.loc = op.loc;
  m.tileValue = op.results.empty() ? "" : op.results[0];
  m.tileSpace = v.space;
  m.tileBytes = v.tileBytes;
  std::vector<int64_t> offsets;
  for (const auto& o : ops)
    if (auto c = evalConst(cx_.exprOf(o))) offsets.push_back(*c);
  if (placed && offsets.size() == ops.size() && !offsets.empty()) {
    if (offsets.size() == 1)
      m.tileAddr = v.tileAddr = offsets[0];
    else
      m.tileAddrChoices = offsets;
  }
  cx_.defineResults(op, v);
  if (m.tileAddr || !m.tileAddrChoices.empty()) seq.children.push_back(Stmt::opStmt(std::move(m)));
}

void OpLifter::liftScalarMemory(const mlir::Op& op, const ops::OpRow& row, Stmt& seq) {
  const auto& ops = op.operands;
  Op m;
  m.kind = row.kind;
  m.name = op.name;
  m.dialect = dialectOfMlirName(op.name);
  m.loc = op.loc;
  m.pipes = ops::resolvePipes(row, {});
  m.uses = ops;
  m.defs = op.results;
  bool load = row.kind == OpKind::ScalarLoad;
  if (load && !ops.empty()) m.reads.push_back(cx_.memRefOf(ops[0]));
  if (!load && ops.size() > 1) m.writes.push_back(cx_.memRefOf(ops[1]));
  if (load) cx_.defineResults(op, ValueInfo{});
  seq.children.push_back(Stmt::opStmt(std::move(m)));
}

void OpLifter::liftOp(const mlir::Op& op, const ops::OpRow* row, Stmt& seq) {
  if (!row) {  // not in the registry: it may access memory and synchronise
    cx_.gap(ModelGap{ModelGap::Kind::OpaqueOp, op.loc,
                     "'" + op.name +
                         "' (not in the HIVM op table: what it reads, writes and synchronises is not "
                         "modelled)"});
    return;
  }
  Op m;
  m.kind = row->kind;
  m.name = op.name;
  m.dialect = dialectOfMlirName(op.name);
  m.loc = op.loc;
  m.pipes = row->pipes;
  m.uses = op.operands;
  m.defs = op.results;
  m.unitFlag = op.hasWord("unit_flag_mode");
  switch (m.kind) {
    case OpKind::SetFlag:
    case OpKind::WaitFlag:
    case OpKind::PipeBarrier:
      cx_.liftIntraCoreSync(op, *row, m);
      break;
    case OpKind::CrossCoreSet:
    case OpKind::CrossCoreWait:
      liftCrossCore(op, *row, m);
      break;
    case OpKind::SyncAll:
      liftSyncBlock(op, m);
      break;
    default: {
      std::vector<std::string> ins = groupOperands(op, "ins"), outs = groupOperands(op, "outs");
      for (const auto& o : ins)
        if (cx_.info(o)) m.reads.push_back(cx_.memRefOf(o));
      for (const auto& o : outs)
        if (cx_.info(o)) m.writes.push_back(cx_.memRefOf(o));
      // copy and vbrc run on the pipe of their direction, when it has both ends.
      ops::PipeOperands spaces;
      if (!m.reads.empty() && !m.writes.empty()) spaces.src = m.reads.front().space, spaces.dst = m.writes.front().space;
      m.pipes = ops::resolvePipes(*row, spaces);
      break;
    }
  }
  if (row->cubeMacro) return liftCubeMacro(op, *row, std::move(m), seq);
  seq.children.push_back(Stmt::opStmt(std::move(m)));
}

// sync_block_set / sync_block_wait [core type, set pipe, wait pipe] flag = id.
void OpLifter::liftCrossCore(const mlir::Op& op, const ops::OpRow& row, Op& m) {
  std::vector<std::string> items = bracketList(op);
  if (items.size() >= 3) {
    m.coreType = coreTypeFromName(items[0]);
    m.event.src = pipeFromName(items[1]);
    m.event.dst = pipeFromName(items[2]);
  }
  ops::PipeOperands ends;
  ends.eventSrc = m.event.src;
  ends.eventDst = m.event.dst;
  m.pipes = ops::resolvePipes(row, ends);
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
}

// sync_block [mode(, flag : i16)]: the mode's default flag unless the IR names one.
void OpLifter::liftSyncBlock(const mlir::Op& op, Op& m) {
  std::vector<std::string> items = bracketList(op);
  m.syncMode = items.empty() ? SyncMode::None : syncModeFromName(items[0]);
  int flag = ops::defaultSyncBlockFlag(m.syncMode);
  for (const auto& t : op.tokens)
    if (t.kind == Tok::Integer) {
      auto n = cx_.integer(op, t.text);
      flag = n && *n >= 0 && *n <= INT32_MAX ? static_cast<int>(*n) : -1;
      break;
    }
  if (flag >= 0) m.event.id = flag;
  m.fftsBase = !op.attr("ffts_base_addr").empty();
}

// A cube macro's library code waits and sets the events its row lists on the ids the IR passes
// in sync_related_args (-1 means none): the waits before the macro, the sets after it, when the
// IR passes every one of them.
void OpLifter::liftCubeMacro(const mlir::Op& op, const ops::OpRow& row, Op macro, Stmt& seq) {
  std::vector<std::string> args = groupOperands(op, "sync_related_args");
  auto passed = [&](const std::vector<int>& indices) {
    return std::all_of(indices.begin(), indices.end(), [&](int i) { return i < static_cast<int>(args.size()); });
  };
  std::vector<int> eventArgs;
  for (const ops::ArgEvent& e : row.argEvents) eventArgs.push_back(e.arg);
  auto events = [&](OpKind kind) {
    if (!passed(eventArgs)) return;
    for (const ops::ArgEvent& a : row.argEvents) {
      if (a.kind != kind) continue;
      ExprPtr id = cx_.exprOf(args[a.arg]);
      if (evalConst(id) == std::optional<int64_t>(-1)) continue;
      Op e;
      e.kind = kind;
      e.dialect = macro.dialect;
      e.name = macro.name + " (library " + (kind == OpKind::SetFlag ? "set_flag" : "wait_flag") + ")";
      e.loc = op.loc;
      e.event.src = a.src;
      e.event.dst = a.dst;
      e.event.idExpr = id;
      e.event.id = evalConst(id);
      e.pipes = ops::eventPipes(kind, a.src, a.dst);
      seq.children.push_back(Stmt::opStmt(std::move(e)));
    }
  };
  events(OpKind::WaitFlag);
  seq.children.push_back(Stmt::opStmt(std::move(macro)));
  events(OpKind::SetFlag);
  if (passed(row.pairedArgs))
    for (int i : row.pairedArgs)
      if (evalConst(cx_.exprOf(args[i])) != std::optional<int64_t>(-1))
        noteOnce(op, "bwd",
                 "'" + op.name + "': the backward M -> MTE1 events passed to the library (" + args[i] +
                     ") are paired inside the library; they are not modelled");
}

}  // namespace ptov::hivm
