#pragma once
// A cheap first try for the solver's yes/no questions: evaluate the assertions at a few concrete
// points. A point where every assertion (and every fact Solver adds about the launch and the
// parameter ranges) holds proves "satisfiable" exactly as Z3 would; finding none proves nothing,
// and Z3 is asked. Most of sync-pipe-race's "is this sync op on every path of both accesses?"
// questions are answered "no" by a handful of points (docs/solver.md, "Sample points").
#include <cstdint>
#include <map>
#include <optional>
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

// The cheapest point by the witness measure (Solver::Model::Minimal: the sum over symbols of
// 2|x|, plus 1 for a negative value) that satisfies `assertions` and the launch and range facts
// above, found by trying points in order of that cost; ties go to the point whose earlier
// symbols (in order of first use) cost less. Satisfiable carries the value of each `evaluate`
// expression and of every symbol (block_num too where block indices occur); Unsatisfiable is
// given only when every point of a finite space was read and none holds (no symbols, or every
// symbol in a bounded range); otherwise, or when its budget of points runs out, Undecided.
// `onlyIfFinite`: do not search an unbounded space at all.
struct PointSearch {
  enum class Outcome { Satisfiable, Unsatisfiable, Undecided };
  Outcome outcome = Outcome::Undecided;
  std::vector<int64_t> values;
  std::map<std::string, int64_t> symbols;
};
PointSearch smallestSatisfyingPoint(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate,
                                    const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges,
                                    bool onlyIfFinite);

}  // namespace ptov
