#pragma once
// sync-pipe-race's search (docs/solver.md, "Pipe races"): pairs of accesses on different pipes,
// at least one a write, that overlap on some feasible path with no set -> wait chain or barrier
// between them. An analysis over the kernel's trace; the guards' implications and the overlap's
// feasibility are the ProofContext's queries.
#include <string>
#include <vector>

#include "solver/proofs.h"

namespace ptov {

// The pipe a memory access of `op` runs on (its own phase's pipe for TPUT / TGET), Unknown for
// ops that are not accesses.
Pipe accessPipe(const Op& op, const MemRef& m);

// Two memory accesses on different pipes that may touch the same memory with no ordering.
struct PipeRace {
  const Op* first = nullptr;  // earlier in issue order
  const Op* second = nullptr;
  const MemRef* firstRef = nullptr;
  const MemRef* secondRef = nullptr;
  bool firstWrites = false, secondWrites = false;
  Verdict verdict;
};

// `notChecked` says why some pairs were not looked at (the trace is incomplete, the kernel's
// budget ran out); empty when every pair was.
struct PipeRaces {
  std::vector<PipeRace> races;
  std::string notChecked;
};
PipeRaces findPipeRaces(ProofContext& proofs);

}  // namespace ptov
