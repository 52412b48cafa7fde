#include "analyzer/model/model.h"

#include "analyzer/model/cpp_facts.h"

#include <string_view>

namespace ptov {

namespace {
struct PipeEntry {
  Pipe pipe;
  const char* name;
};
const PipeEntry kPipes[] = {
    {Pipe::S, "PIPE_S"},       {Pipe::V, "PIPE_V"},       {Pipe::M, "PIPE_M"},
    {Pipe::MTE1, "PIPE_MTE1"}, {Pipe::MTE2, "PIPE_MTE2"}, {Pipe::MTE3, "PIPE_MTE3"},
    {Pipe::ALL, "PIPE_ALL"},   {Pipe::MTE4, "PIPE_MTE4"}, {Pipe::MTE5, "PIPE_MTE5"},
    {Pipe::V2, "PIPE_V2"},     {Pipe::FIX, "PIPE_FIX"},
};
}  // namespace

const char* pipeName(Pipe p) {
  for (const auto& e : kPipes)
    if (e.pipe == p) return e.name;
  return "PIPE_UNKNOWN";
}

// With or without the PIPE_ prefix. Views: a length check rules out most names before a byte
// is compared (comparing with each char* measured its length first).
Pipe pipeFromName(const std::string& name) {
  std::string_view n = name;
  if (n.size() > 5 && n.compare(0, 5, "PIPE_") == 0) n.remove_prefix(5);
  for (const auto& e : kPipes)
    if (n == std::string_view(e.name + 5)) return e.pipe;
  return Pipe::Unknown;
}

const char* frontEndName(FrontEnd f) {
  switch (f) {
    case FrontEnd::Hivm: return "hivm";
    case FrontEnd::Cpp: return "cpp";
    case FrontEnd::Pto: break;
  }
  return "pto";
}

const char* kernelKindName(KernelKind k) {
  switch (k) {
    case KernelKind::Vector: return "vector";
    case KernelKind::Cube: return "cube";
    case KernelKind::Mix: return "mix";
    case KernelKind::Machine: return "machine";
    case KernelKind::Orchestration: return "orchestration";
    case KernelKind::Unknown: break;
  }
  return "";
}

const char* coreViewName(CoreView v) {
  switch (v) {
    case CoreView::Aiv: return "aiv";
    case CoreView::Aic: return "aic";
    case CoreView::Whole: break;
  }
  return "";
}

bool areViewTwins(const Kernel& a, const Kernel& b) {
  return a.view != CoreView::Whole && b.view != CoreView::Whole && a.view != b.view && a.name == b.name &&
         a.file == b.file &&
         a.loc.line == b.loc.line;
}

const char* gapKindName(ModelGap::Kind k) {
  switch (k) {
    case ModelGap::Kind::UndeclaredCall: return "undeclared call";
    case ModelGap::Kind::OpaqueCall: return "call without a body";
    case ModelGap::Kind::UnresolvedAddress: return "unresolved address";
    case ModelGap::Kind::UnknownOp: return "unknown op";
    case ModelGap::Kind::SkippedCode: return "skipped code";
    case ModelGap::Kind::OpaqueOp: return "op of unknown effect";
  }
  return "gap";
}

const char* opKindName(OpKind k) {
  switch (k) {
    case OpKind::Load: return "load";
    case OpKind::Prefetch: return "prefetch";
    case OpKind::Store: return "store";
    case OpKind::ScalarLoad: return "scalar load";
    case OpKind::ScalarStore: return "scalar store";
    case OpKind::SetFlag: return "set_flag";
    case OpKind::WaitFlag: return "wait_flag";
    case OpKind::PipeBarrier: return "pipe barrier";
    case OpKind::Fence: return "fence";
    case OpKind::CacheInvalidate: return "cache invalidate";
    case OpKind::Notify: return "notify";
    case OpKind::Wait: return "wait";
    case OpKind::Test: return "test";
    case OpKind::Put: return "put";
    case OpKind::Get: return "get";
    case OpKind::Collective: return "collective";
    case OpKind::AsyncWait: return "async wait";
    case OpKind::CrossCoreSet: return "cross-core set";
    case OpKind::CrossCoreWait: return "cross-core wait";
    case OpKind::SetFfts: return "set_ffts";
    case OpKind::SyncAll: return "syncall";
    case OpKind::TileAlloc: return "tile alloc";
    case OpKind::TileAssign: return "tile assign";
    case OpKind::Compute: return "compute";
    case OpKind::Call: return "call";
    case OpKind::Return: return "return";
    case OpKind::Branch: return "branch";
    case OpKind::Other: return "other";
  }
  return "other";
}

const char* memSpaceName(MemSpace s) {
  switch (s) {
    case MemSpace::GM: return "gm";
    case MemSpace::UB: return "ub";
    case MemSpace::L1: return "l1";
    case MemSpace::L0A: return "l0a";
    case MemSpace::L0B: return "l0b";
    case MemSpace::L0C: return "l0c";
    case MemSpace::Bias: return "bias";
    case MemSpace::Scaling: return "scaling";
    case MemSpace::Other: return "other";
    case MemSpace::None: break;
  }
  return "";
}

Dialect dialectOfMlirName(const std::string& opName) {
  if (opName.rfind("pto.", 0) == 0) return Dialect::Pto;
  if (opName.rfind("hivm.", 0) == 0) return Dialect::Hivm;
  return Dialect::Generic;
}

namespace {
// Each core type as C++ (pto-isa's SYNCALL, AscendC), .pto (#pto.sync_core_type) and HIVM
// (#hivm.tcore_type) spell it; "" where the dialect has no such type.
struct CoreTypeSpelling {
  CoreType type;
  const char* cpp;
  const char* pto;
  const char* hivm;
};
const CoreTypeSpelling kCoreTypes[] = {
    {CoreType::Vector, "aiv", "aiv_only", "VECTOR"},
    {CoreType::Cube, "aic", "aic_only", "CUBE"},
    {CoreType::Mix, "mix", "mix", ""},
    {CoreType::CubeOrVector, "", "", "CUBE_OR_VECTOR"},
    {CoreType::CubeAndVector, "", "", "CUBE_AND_VECTOR"},
};

struct SyncModeSpelling {
  SyncMode mode;
  const char* name;
};
const SyncModeSpelling kSyncModes[] = {
    {SyncMode::Hard, "hard"},
    {SyncMode::Soft, "soft"},
    {SyncMode::AllCube, "ALL_CUBE"},
    {SyncMode::AllVector, "ALL_VECTOR"},
    {SyncMode::AllSubVector, "ALL_SUB_VECTOR"},
    {SyncMode::BarrierCube, "BARRIER_CUBE"},
    {SyncMode::BarrierVector, "BARRIER_VECTOR"},
    {SyncMode::All, "ALL"},
    {SyncMode::IntraBlock, "INTRA_BLOCK_SYNCHRONIZATION"},
    {SyncMode::InterBlock, "INTER_BLOCK_SYNCHRONIZATION"},
    {SyncMode::InterSubBlock, "INTER_SUBBLOCK_SYNCHRONIZATION"},
    {SyncMode::Other, "other"},
};
}  // namespace

const char* coreTypeName(CoreType c, Dialect d) {
  if (c == CoreType::Other) return "other";
  for (const auto& e : kCoreTypes) {
    if (e.type != c) continue;
    const char* own = d == Dialect::Hivm ? e.hivm : d == Dialect::Pto ? e.pto : e.cpp;
    return *own ? own : *e.cpp ? e.cpp : e.hivm;
  }
  return "";
}

CoreType coreTypeFromName(const std::string& name) {
  if (name.empty()) return CoreType::None;
  for (const auto& e : kCoreTypes)
    for (const char* spelling : {e.cpp, e.pto, e.hivm})
      if (*spelling && name == spelling) return e.type;
  return CoreType::Other;
}

const char* syncModeName(SyncMode m) {
  for (const auto& e : kSyncModes)
    if (e.mode == m) return e.name;
  return "";
}

SyncMode syncModeFromName(const std::string& name) {
  if (name.empty()) return SyncMode::None;
  for (const auto& e : kSyncModes)
    if (name == e.name) return e.mode;
  return SyncMode::Other;
}

const char* cachePolicyName(CachePolicy p) {
  switch (p) {
    case CachePolicy::L2Bypass: return "l2_bypass";
    case CachePolicy::Other: return "other";
    case CachePolicy::Default: break;
  }
  return "";
}

CachePolicy cachePolicyFromName(const std::string& name) {
  if (name.empty()) return CachePolicy::Default;
  return name == cachePolicyName(CachePolicy::L2Bypass) ? CachePolicy::L2Bypass : CachePolicy::Other;
}

bool MemRef::sameBuffer(const MemRef& o) const {
  if (space != o.space) return false;
  if (param >= 0 || o.param >= 0) return param == o.param && peer == o.peer;
  return !value.empty() && value == o.value;
}

std::vector<std::pair<int64_t, int64_t>> MemRef::tileViewBytesAt(int64_t offset) const {
  if (tileViewLineBytes <= 0 || tileViewLines <= 1) return {{offset, offset + tileViewBytes}};
  std::vector<std::pair<int64_t, int64_t>> lines;
  for (int64_t k = 0; k < tileViewLines; ++k)
    lines.push_back({offset + k * tileViewStride, offset + k * tileViewStride + tileViewLineBytes});
  return lines;
}

bool rangesMeet(const std::vector<std::pair<int64_t, int64_t>>& a, const std::vector<std::pair<int64_t, int64_t>>& b) {
  // Both lists run upwards: walk them together.
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i].first < b[j].second && b[j].first < a[i].second) return true;
    if (a[i].second <= b[j].second) ++i;
    else ++j;
  }
  return false;
}

bool MemRef::tileViewSharesBytes(const MemRef& other) const {
  return rangesMeet(tileViewBytesAt(tileViewOffset.value_or(0)), other.tileViewBytesAt(other.tileViewOffset.value_or(0)));
}

bool Op::writesGm() const {
  for (const auto& w : writes)
    if (w.space == MemSpace::GM) return true;
  return false;
}

bool Op::readsGm() const {
  for (const auto& r : reads)
    if (r.space == MemSpace::GM) return true;
  return false;
}

void substituteLeaves(Stmt& s, const std::function<ExprPtr(const Expr&)>& leaf) {
  auto in = [&](ExprPtr& e) {
    if (e) e = substitute(e, leaf);
  };
  for (ExprPtr* e : {&s.lb, &s.ub, &s.step, &s.cond, &s.op.event.idExpr, &s.op.participants, &s.op.participantIndex,
                     &s.op.workspaceOffset})
    in(*e);
  for (auto* refs : {&s.op.reads, &s.op.writes})
    for (MemRef& m : *refs) {
      for (auto& e : m.offsets) in(e);
      for (auto& e : m.sizes) in(e);
      in(m.byteStart);
    }
  for (auto& c : s.children)
    if (c) substituteLeaves(*c, leaf);
}

StmtPtr Stmt::seq() {
  auto s = std::make_unique<Stmt>();
  s->kind = Kind::Seq;
  return s;
}

StmtPtr Stmt::opStmt(Op op) {
  auto s = std::make_unique<Stmt>();
  s->kind = Kind::OpStmt;
  s->loc = op.loc;
  s->op = std::move(op);
  return s;
}

std::optional<int64_t> Kernel::launchedLanes() const {
  std::optional<int64_t> lanes;
  for (const LaunchFacts* l : launches) {
    if (!l->blockNum || (lanes && *lanes != *l->blockNum)) return std::nullopt;
    lanes = l->blockNum;
  }
  return lanes;
}

int Kernel::paramIndex(const std::string& n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

}  // namespace ptov
