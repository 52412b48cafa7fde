#pragma once
// The solver's questions answered at concrete points before Z3 is asked, claiming only what the
// points show (docs/solver.md, "Concrete points before Z3"): a point where every assertion (and
// every fact Solver adds about the launch and the parameter ranges) holds is a model, exactly as
// Z3 would find it; "unsatisfiable" is said only where every point that matters was read (a
// finite space, the residue lines of a formula over one symbol, the box of symbols that are only
// compared). Everything else is left to Z3.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"

namespace ptov {

// The solver symbol a leaf stands for (leaves of one name are one symbol); the Z3 session names
// symbols the same way.
inline std::string solverSymbolName(const Expr& leaf) {
  switch (leaf.kind) {
    case Expr::Kind::BlockIdx: return "block_idx";
    case Expr::Kind::BlockNum: return "block_num";
    case Expr::Kind::Unknown: return "?" + leaf.name;
    default: return leaf.name;
  }
}
// A symbol's name as --param-range spells it (without the leading '%').
inline std::string withoutPercent(const std::string& s) { return !s.empty() && s[0] == '%' ? s.substr(1) : s; }

// Random points: does one satisfy all of `assertions`, 1 <= block_num, 0 <= block_idx* <
// block_num and `paramRanges` (by name without '%')? Only true answers are certain.
bool satisfiedAtSamplePoint(const std::vector<ExprPtr>& assertions,
                            const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges);
// The same search, giving the point found: a value per symbol (block_num too where block
// indices occur).
std::optional<std::map<std::string, int64_t>> samplePointModel(
    const std::vector<ExprPtr>& assertions, const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges);

// The cheapest point by the witness measure (Solver::Model::Minimal: the sum over symbols of
// 2|x|, plus 1 for a negative value; a lane count the query does not name is not counted) that
// satisfies `assertions` and the launch and range facts above, found by trying points in order
// of that cost; ties go to the point whose earlier symbols (in order of first use) cost less.
// Satisfiable carries the value of each `evaluate` expression and of every symbol (block_num too
// where block indices occur). Unsatisfiable is given only when every point that matters was
// read and none holds: a finite space (every symbol in a bounded range, or only compared with
// constants and each other), or one unbounded symbol in arithmetic (for each value of the
// compared-only ones) whose formula settles on every residue line. Otherwise, or when a budget
// of points runs out, Undecided. `onlyIfFinite`: do not search an unbounded space for a witness.
struct PointSearch {
  enum class Outcome { Satisfiable, Unsatisfiable, Undecided };
  Outcome outcome = Outcome::Undecided;
  std::vector<int64_t> values;
  std::map<std::string, int64_t> symbols;
};
PointSearch smallestSatisfyingPoint(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate,
                                    const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges,
                                    bool onlyIfFinite);

struct ModelValues {
  std::vector<std::optional<int64_t>> values;  // per `evaluate` expression
  std::map<std::string, int64_t> symbols;      // every symbol named
};
// The values of `evaluate` at a model of `assertions` (`model`: a value per symbol, as Z3 gave
// it for the assertions alone). A symbol only `evaluate` names takes its cheapest value (0, or
// the bound of its configured range nearer 0; one lane); a value that cannot be read (a division
// by zero) is nullopt. Nullopt when the point does not satisfy every assertion as the evaluator
// reads it, or an expression is outside what it reads: Z3 is then asked for the whole witness.
std::optional<ModelValues> valuesAtModel(const std::vector<ExprPtr>& assertions, const std::vector<ExprPtr>& evaluate,
                                         const std::map<std::string, int64_t>& model,
                                         const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges);

}  // namespace ptov

