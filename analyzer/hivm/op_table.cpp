#include "analyzer/hivm/op_table.h"

#include <map>

namespace ptov::hivm {

namespace {
using P = Pipe;
const std::map<std::string, OpFacts>& table() {
  static const std::map<std::string, OpFacts> t = {
      {"hivm.hir.set_flag", {OpKind::SetFlag, {}, true}},
      {"hivm.hir.wait_flag", {OpKind::WaitFlag, {}, true}},
      {"hivm.hir.pipe_barrier", {OpKind::PipeBarrier, {}, true}},
      {"hivm.hir.sync_block_set", {OpKind::CrossCoreSet, {}, true}},
      {"hivm.hir.sync_block_wait", {OpKind::CrossCoreWait, {}, true}},
      {"hivm.hir.sync_block", {OpKind::SyncAll, {P::ALL}, true}},
      {"hivm.hir.set_ffts_base_addr", {OpKind::SetFfts, {P::S}, true}},
      {"hivm.hir.load", {OpKind::Load, {P::MTE2}, true}},
      {"hivm.hir.nd2nz", {OpKind::Load, {P::MTE2}, true}},
      {"hivm.hir.load_scale", {OpKind::Load, {P::MTE2}, true}},
      {"hivm.hir.store", {OpKind::Store, {P::MTE3}, true}},
      {"hivm.hir.nz2nd", {OpKind::Store, {P::MTE3}, true}},
      {"hivm.hir.fixpipe", {OpKind::Compute, {P::FIX}, true}},
      {"hivm.hir.l12ub", {OpKind::Compute, {P::MTE1}, true}},
      {"hivm.hir.copy", {OpKind::Compute, {P::V}, true}},  // pipe by address spaces (lifter)
      {"hivm.hir.vbrc", {OpKind::Compute, {P::V}, true}},  // MTE2 when the destination is L1 (lifter)
      // Cube macros: read L1 on MTE1, write L0C on M. One pipe per op in this model: M.
      {"hivm.hir.mmadL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.batchMmadL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.mmadmxL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.Conv1dL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.Conv2dL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.Conv3dL1", {OpKind::Compute, {P::M}, true}},
      {"hivm.hir.gather_load", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.scatter_store", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.stride_load", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.stride_store", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.indirect_load", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.indirect_store", {OpKind::Compute, {P::V}, true}},
      {"hivm.hir.return", {OpKind::Return, {}, true}},
  };
  return t;
}
}  // namespace

OpFacts lookupOp(const std::string& name) {
  auto it = table().find(name);
  if (it != table().end()) return it->second;
  // Every other vector op (vadd, vcast, vreduce, ...) runs on PIPE_V.
  if (name.rfind("hivm.hir.v", 0) == 0) return {OpKind::Compute, {Pipe::V}, true};
  return {OpKind::Other, {}, false};
}

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

int defaultSyncBlockFlag(SyncMode mode) {
  using M = SyncMode;
  if (mode == M::AllCube || mode == M::BarrierCube) return 15;  // interCube
  if (mode == M::AllVector || mode == M::AllSubVector || mode == M::BarrierVector) return 14;  // interVector
  if (mode == M::All) return 13;  // blockAllInterCube (with 12, 11, 10 on the other steps)
  return -1;
}

std::string archOfTarget(const std::string& target) {
  return target.find("Ascend950") != std::string::npos ? "a5" : "a2a3";
}

}  // namespace ptov::hivm
