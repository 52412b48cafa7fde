#pragma once
// Z3 behind a door the process opens only when a query needs it. The session (one Z3 context,
// solver/z3_session.cpp) is built into libptoverify-z3.so, which `ptoverify` loads on the first
// query that concrete points leave open: loading libz3 was a third of every process's start-up,
// and most runs never ask Z3. Other executables (ptoverify-cpp, tests, benches, fuzzers) link
// the same session directly.
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
};

// One Z3 context: a fresh session per kernel (docs/solver.md says why).
class Z3Session {
 public:
  virtual ~Z3Session() = default;
  virtual SatAnswer solve(const Z3Query& q) = 0;
};

// A new session, or null with `error` saying why Z3 cannot be used (then every query that
// needs Z3 is `unknown` with that reason, never a pass).
std::unique_ptr<Z3Session> newZ3Session(std::string& error);

}  // namespace ptov

// The session's factory, exported by libptoverify-z3.so (and by the linked-in session).
extern "C" ptov::Z3Session* ptovNewZ3Session();
