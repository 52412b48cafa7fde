#pragma once
// Facts about hivm.hir ops (AscendNPU IR): their model kind and pipes, from the reference
// notes (hivm-dialect.md §1.9). The generic MLIR lifter asks here for every `hivm.hir.*` op.
#include <string>

#include "analyzer/model/op_facts.h"

namespace ptov::hivm {

OpFacts lookupOp(const std::string& name);

// `#hivm.address_space<ub>` anywhere in a type -> the model's space (UB, L1, L0A, L0B, L0C, GM;
// Other for a space not known here); None when the type names none.
MemSpace addressSpace(const std::string& type);

// Cross-core flag ids HIVMDecomposeOp hard-codes for sync_block (reference §1.6): the default
// flag of each mode's barrier.
int defaultSyncBlockFlag(SyncMode mode);

// "Ascend950..." targets are RegBase (a5); everything else, and no target, is the memory-based
// 910B family (a2a3).
std::string archOfTarget(const std::string& haccTarget);

}  // namespace ptov::hivm
