#include "analyzer/pto/op_table.h"

#include "analyzer/hivm/op_table.h"
#include "analyzer/model/isa_table.h"

#include <map>

namespace ptov::pto {

namespace {
using P = Pipe;
const std::map<std::string, OpFacts>& table() {
  static const std::map<std::string, OpFacts> t = {
      {"pto.load_scalar", {OpKind::ScalarLoad, {P::S}, true}},
      {"pto.load", {OpKind::ScalarLoad, {P::S}, true}},
      {"pto.store_scalar", {OpKind::ScalarStore, {P::S}, true}},
      {"pto.store", {OpKind::ScalarStore, {P::S}, true}},
      {"pto.set_flag", {OpKind::SetFlag, {}, true}},
      {"pto.wait_flag", {OpKind::WaitFlag, {}, true}},
      {"pto.set_flag_dyn", {OpKind::SetFlag, {}, true}},
      {"pto.wait_flag_dyn", {OpKind::WaitFlag, {}, true}},
      {"pto.record_event", {OpKind::SetFlag, {}, true}},
      {"pto.wait_event", {OpKind::WaitFlag, {}, true}},
      {"pto.barrier", {OpKind::PipeBarrier, {}, true}},
      {"pto.pipe_barrier", {OpKind::PipeBarrier, {}, true}},
      {"pto.fence.barrier_all", {OpKind::Fence, {P::ALL}, true}},
      {"pto.cmo.cacheinvalid", {OpKind::CacheInvalidate, {P::S}, true}},
      {"pto.comm.tnotify", {OpKind::Notify, {P::MTE3}, true}},
      {"pto.comm.twait", {OpKind::Wait, {P::S}, true}},
      {"pto.comm.ttest", {OpKind::Test, {P::S}, true}},
      {"pto.comm.tput", {OpKind::Put, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.tget", {OpKind::Get, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.tput_async", {OpKind::Put, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.tget_async", {OpKind::Get, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.wait_async_event", {OpKind::AsyncWait, {P::S}, true}},
      {"pto.comm.test_async_event", {OpKind::AsyncWait, {P::S}, true}},
      {"pto.comm.tbroadcast", {OpKind::Collective, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.tgather", {OpKind::Collective, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.tscatter", {OpKind::Collective, {P::MTE2, P::MTE3}, true}},
      {"pto.comm.treduce", {OpKind::Collective, {P::MTE2, P::V, P::MTE3}, true}},
      {"pto.sync.set", {OpKind::CrossCoreSet, {}, true}},
      {"pto.sync.wait", {OpKind::CrossCoreWait, {}, true}},
      {"pto.set_intra_block", {OpKind::CrossCoreSet, {}, true}},
      {"pto.wait_intra_block", {OpKind::CrossCoreWait, {}, true}},
      {"pto.set_cross_block", {OpKind::CrossCoreSet, {}, true}},
      {"pto.wait_cross_block", {OpKind::CrossCoreWait, {}, true}},
      {"pto.set_ffts", {OpKind::SetFfts, {P::S}, true}},
      {"pto.syncall", {OpKind::SyncAll, {P::ALL}, true}},
      {"pto.alloc_tile", {OpKind::TileAlloc, {}, true}},
      {"pto.tassign", {OpKind::TileAssign, {}, true}},
      {"func.call", {OpKind::Call, {}, true}},
      {"return", {OpKind::Return, {}, true}},
      {"func.return", {OpKind::Return, {}, true}},
      {"cf.br", {OpKind::Branch, {}, true}},
      {"cf.cond_br", {OpKind::Branch, {}, true}},
  };
  return t;
}
}  // namespace

OpFacts lookupOp(const std::string& name) {
  auto it = table().find(name);
  if (it != table().end()) return it->second;
  if (name.rfind("hivm.hir.", 0) == 0) return hivm::lookupOp(name);
  // Tile instructions (pto.tload, pto.tmov, pto.tmatmul.acc, ...): the PTO-ISA table shared with
  // the C++ front end. Its default pipes; the lifter refines them from the operands' spaces.
  if (name.rfind("pto.t", 0) == 0) {
    if (const ptoisa::Instr* in = ptoisa::lookup(name)) return {in->kind, in->pipes, true};
    // Others (pto.tadd, pto.texp, ...) are vector computations on local tiles.
    if (name.find('.', 4) == std::string::npos) return {OpKind::Compute, {Pipe::V}, false};
  }
  return {OpKind::Other, {}, false};
}

Pipe pipeForSyncOpType(const std::string& t) {
  static const std::map<std::string, Pipe> m = {
      {"TLOAD", Pipe::MTE2},     {"TSTORE_VEC", Pipe::MTE3}, {"TSTORE_ACC", Pipe::FIX},
      {"TMOV_M2L", Pipe::MTE1},  {"TMOV_M2B", Pipe::MTE1},   {"TMOV_M2S", Pipe::FIX},
      {"TMOV_M2V", Pipe::V},     {"TMOV_V2M", Pipe::FIX},    {"TMATMUL", Pipe::M},
      {"TVEC", Pipe::V},         {"TVECWAIT_EVENT", Pipe::V},
  };
  auto it = m.find(t);
  return it == m.end() ? Pipe::Unknown : it->second;
}

int elementBytes(const std::string& type) {
  static const std::map<std::string, int> m = {
      {"f64", 8}, {"i64", 8}, {"ui64", 8}, {"f32", 4}, {"i32", 4}, {"ui32", 4},
      {"f16", 2}, {"bf16", 2}, {"i16", 2}, {"ui16", 2}, {"i8", 1}, {"ui8", 1},
      {"i1", 1},  {"f8E4M3FN", 1}, {"f8E5M2", 1}, {"hif8", 1}, {"index", 8},
  };
  auto it = m.find(type);
  return it == m.end() ? 0 : it->second;
}

std::string spaceForLoc(const std::string& loc) {
  static const std::map<std::string, std::string> m = {
      {"vec", "ub"},  {"ub", "ub"},   {"mat", "l1"}, {"l1", "l1"},   {"left", "l0a"},
      {"l0a", "l0a"}, {"right", "l0b"}, {"l0b", "l0b"}, {"acc", "l0c"}, {"l0c", "l0c"},
      {"bias", "bias"}, {"bt", "bias"}, {"scaling", "scaling"}, {"fb", "scaling"},
      {"gm", "gm"},
  };
  auto it = m.find(loc);
  return it == m.end() ? loc : it->second;
}

}  // namespace ptov::pto
