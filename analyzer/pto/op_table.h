#pragma once
// One table of facts per .pto op (and the generic MLIR ops both dialects use): its model kind
// and the pipes it runs on. Rules never switch on op names; they read these facts from the model.
#include <string>

#include "analyzer/model/op_facts.h"

namespace ptov::pto {

OpFacts lookupOp(const std::string& name);

// record_event / wait_event operation types -> the pipe they run on (PTOAS mapSyncOpTypeToPipe).
Pipe pipeForSyncOpType(const std::string& opType);

// Tile `loc=` keyword -> model address space (vec -> UB, mat -> L1, left -> L0A, ...); Other for a
// keyword not known here.
MemSpace spaceForLoc(const std::string& loc);

}  // namespace ptov::pto
