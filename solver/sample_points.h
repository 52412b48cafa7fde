#pragma once
// A cheap first try for the solver's yes/no questions: evaluate the assertions at a few concrete
// points. A point where every assertion (and every fact Solver adds about the launch and the
// parameter ranges) holds proves "satisfiable" exactly as Z3 would; finding none proves nothing,
// and Z3 is asked. Most of sync-pipe-race's "is this sync op on every path of both accesses?"
// questions are answered "no" by a handful of points (docs/solver.md, "Sample points").
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"

namespace ptov {

// The solver symbol a leaf stands for (leaves of one name are one symbol).
std::string solverSymbolName(const Expr& leaf);

// Does some point satisfy all of `assertions`, 1 <= block_num, 0 <= block_idx* < block_num and
// `paramRanges` (by name without '%')? Only true answers are certain.
bool satisfiedAtSamplePoint(const std::vector<ExprPtr>& assertions,
                            const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges);

}  // namespace ptov
