#pragma once
// One table of facts per .pto op: its model kind and the pipes it runs on.
// Rules never switch on op names; they read these facts from the model.
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov::pto {

struct OpFacts {
  OpKind kind = OpKind::Other;
  std::vector<Pipe> pipes;
  bool known = false;  // listed in the table (as opposed to a default guess)
};

OpFacts lookupOp(const std::string& name);

// record_event / wait_event operation types -> the pipe they run on (PTOAS mapSyncOpTypeToPipe).
Pipe pipeForSyncOpType(const std::string& opType);

// Bytes per element of an MLIR element type (f32 -> 4); 0 if unknown.
int elementBytes(const std::string& type);

// Tile `loc=` keyword -> model address space (vec -> ub, mat -> l1, left -> l0a, ...).
std::string spaceForLoc(const std::string& loc);

}  // namespace ptov::pto
