#include "analyzer/pto/op_table.h"

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
      {"pto.alloc_tile", {OpKind::TileAlloc, {}, true}},
      {"pto.alloc_multi_tile", {OpKind::TileAlloc, {}, true}},  // N slots, read by pto.multi_tile_get
      {"func.call", {OpKind::Call, {}, true}},
      {"return", {OpKind::Return, {}, true}},
      {"func.return", {OpKind::Return, {}, true}},
      {"cf.br", {OpKind::Branch, {}, true}},
      {"cf.cond_br", {OpKind::Branch, {}, true}},
      // Regions whose bodies run in place.
      {"pto.section.vector", {OpKind::Other, {}, true}},
      {"pto.section.cube", {OpKind::Other, {}, true}},
      {"pto.fusion_region", {OpKind::Other, {}, true}},
      {"pto.vecscope", {OpKind::Other, {}, true}},
      {"pto.strict_vecscope", {OpKind::Other, {}, true}},
      // Values and descriptors: no memory access, no pipe, no synchronisation.
      {"pto.yield", {OpKind::Other, {}, true}},
      {"builtin.unrealized_conversion_cast", {OpKind::Other, {}, true}},
      {"pto.inttoptr", {OpKind::Other, {}, true}},
      {"pto.ptrtoint", {OpKind::Other, {}, true}},
      {"pto.get_l2_cache_offset", {OpKind::Other, {}, true}},
      {"pto.import_reserved_buffer", {OpKind::Other, {}, true}},
      {"pto.reserve_buffer", {OpKind::Other, {}, true}},
      {"pto.comm.build_async_session", {OpKind::Other, {}, true}},
      {"scope.scope", {OpKind::Other, {}, true}},  // HIVM: a region run in place
      {"scope.return", {OpKind::Other, {}, true}},
      {"affine.apply", {OpKind::Other, {}, true}},  // index values (taken as unknown)
      {"affine.min", {OpKind::Other, {}, true}},
      {"affine.max", {OpKind::Other, {}, true}},
      {"memref.extract_strided_metadata", {OpKind::Other, {}, true}},
      {"memref.dim", {OpKind::Other, {}, true}},
      {"llvm.inttoptr", {OpKind::Other, {}, true}},
      {"vector.multi_reduction", {OpKind::Other, {}, true}},  // on values: transfer_read/write move data
      {"call", {OpKind::Call, {}, true}},                     // func.call's short spelling
      {"memref_ext.alloc_workspace", {OpKind::Other, {}, true}},  // an allocation: no access
  };
  return t;
}
}  // namespace

OpFacts lookupOp(const std::string& name) {
  auto it = table().find(name);
  if (it != table().end()) return it->second;
  // PTO-ISA instructions (pto.tload, pto.tmatmul.acc, pto.comm.tput, pto.set_flag, ...): the
  // table shared with the C++ front end. Its default pipes; the lifter refines them from the
  // operands.
  if (const ptoisa::Instr* in = ptoisa::lookupPto(name)) return {in->kind, in->pipes, true};
  // Value-semantic dialects (before bufferization) and math on values: no memory, no pipe.
  for (const char* values : {"tensor.", "math."})
    if (name.rfind(values, 0) == 0) return {OpKind::Other, {}, true};
  // Anything else (pto.tpop, pto.tfrobnicate) is not known: the lifter counts it as a gap
  // instead of guessing what it reads, writes and synchronises.
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

}  // namespace ptov::pto
