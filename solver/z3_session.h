#pragma once
// Z3 behind one interface: a session is one Z3 context, made fresh per kernel (solver/solver.cpp
// asks for one only when a query concrete points leave open needs Z3).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/model/expr.h"
#include "solver/solver.h"

namespace ptov {

struct Z3Query {
  const std::vector<ExprPtr>& assertions;
  const std::vector<ExprPtr>& evaluate;
  bool minimalModel = true;  // values of a minimal model for `evaluate` and the symbols
  unsigned timeoutMs = 2000;  // this query's Z3 time limit
  double leftMs = 0;         // what is left of the kernel's budget (bounds witness minimisation)
  const std::map<std::string, std::pair<int64_t, int64_t>>& paramRanges;
  std::function<bool()> budgetSpent;  // checked while translating big queries
  std::string budgetSpentReason;      // the answer's reason when it is
  unsigned resourceLimit = 0;         // Z3's resource units for this check (0: none)
  bool linear = true;                 // linearArithmetic(assertions): only then is a model minimised
};

// One Z3 context: a fresh session per kernel (docs/solver.md says why).
class Z3Session {
 public:
  virtual ~Z3Session() = default;
  virtual SatAnswer solve(const Z3Query& q) = 0;
};

std::unique_ptr<Z3Session> newZ3Session();

}  // namespace ptov

