#pragma once
// The HIVM (AscendNPU IR) op lifter. The generic parts (arith, scf, func, values) are the
// function lifter's (analyzer/pto/lifter.cpp), shared with .pto; this lifts what only AscendNPU
// IR has: memref buffers, pointer_cast placements, sync_block_* cross-core flags, and the library
// macros whose sync lives outside the IR (AscendNPU IR's HIVM dialect documentation and
// HIVMMacroOps.td, https://gitcode.com/Ascend/AscendNPU-IR). The function lifter looks each op's
// row up in the op registry and hands the rows of these lifts here.
#include <cstdint>
#include <set>
#include <string>

#include "analyzer/mlir/lift_context.h"
#include "analyzer/model/op_registry.h"

namespace ptov::hivm {

// `#hivm.address_space<ub>` anywhere in a type -> the model's space (UB, L1, L0A, L0B, L0C, GM;
// Other for a space not known here); None when the type names none.
MemSpace addressSpace(const std::string& type);

// "Ascend950..." targets are RegBase (a5); everything else, and no target, is the memory-based
// 910B family (a2a3).
std::string archOfTarget(const std::string& haccTarget);

class OpLifter {
 public:
  explicit OpLifter(mlir::LiftContext& cx) : cx_(cx) {}
  // An op whose row's lift is one of AscendNPU IR's: a memref alias, an allocation or placement,
  // a memref.load / store, a lock (noted, not modelled).
  void liftSpecial(const mlir::Op& op, const ops::OpRow& row, Stmt& seq);
  // A hivm.hir op lifted as a model op; `row` null when the registry does not list it (a gap).
  void liftOp(const mlir::Op& op, const ops::OpRow* row, Stmt& seq);
  // A custom macro: its inner sync is not modelled (said once); the caller lifts it as an op.
  void noteCustom(const mlir::Op& op);

 private:
  // Bytes of a `memref<4x16xf32, ...>` type; 0 when a dimension is dynamic.
  static int64_t memrefBytes(const std::string& type);
  static std::string firstMemrefType(const mlir::Op& op);
  void noteOnce(const mlir::Op& op, const std::string& key, const std::string& msg);
  void liftAlias(const mlir::Op& op);
  void liftAlloc(const mlir::Op& op, bool placed, Stmt& seq);
  void liftScalarMemory(const mlir::Op& op, const ops::OpRow& row, Stmt& seq);
  void liftCrossCore(const mlir::Op& op, const ops::OpRow& row, Op& m);
  void liftSyncBlock(const mlir::Op& op, Op& m);
  void liftCubeMacro(const mlir::Op& op, const ops::OpRow& row, Op macro, Stmt& seq);

  mlir::LiftContext& cx_;
  std::set<std::string> noted_;  // what noteOnce said already
};

}  // namespace ptov::hivm
