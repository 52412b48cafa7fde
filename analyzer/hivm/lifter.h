#pragma once
// The HIVM (AscendNPU IR) op lifter. The generic parts (arith, scf, func, values) are the
// function lifter's (analyzer/pto/lifter.cpp), shared with .pto; this lifts what only AscendNPU
// IR has: memref buffers, pointer_cast placements, sync_block_* cross-core flags, and the library
// macros whose sync lives outside the IR (reference notes hivm-dialect.md §1.5-§1.9).
#include <cstdint>
#include <set>
#include <string>

#include "analyzer/mlir/lift_context.h"

namespace ptov::hivm {

class OpLifter {
 public:
  explicit OpLifter(mlir::LiftContext& cx) : cx_(cx) {}
  // Lifts `op` into `seq` when it is one of the HIVM-only ops (hivm.hir, memref, annotation,
  // bufferization, tensor) this lifter models or knows to skip; false hands it back to the
  // function lifter's generic path (arith, scf, func, and the ops both dialects spell alike).
  bool lift(const mlir::Op& op, Stmt& seq);

 private:
  static bool isMemrefAlias(const std::string& n);
  // Bytes of a `memref<4x16xf32, ...>` type; 0 when a dimension is dynamic.
  static int64_t memrefBytes(const std::string& type);
  static std::string firstMemrefType(const mlir::Op& op);
  static void choosePipeBySpaces(Op& m);
  static bool isCubeMacro(const std::string& n);
  void noteOnce(const mlir::Op& op, const std::string& key, const std::string& msg);
  void liftCubeMacro(const mlir::Op& op, Op macro, Stmt& seq);

  mlir::LiftContext& cx_;
  std::set<std::string> noted_;  // what noteOnce said already
};

}  // namespace ptov::hivm
