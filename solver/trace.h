#pragma once
// A kernel unrolled into one guarded straight-line trace: every op instance carries the
// condition under which it executes, written as an Expr over the kernel's scalar parameters,
// block index, symbolic loop iterations and values the front end could not express. The
// Z3 encodings (solver.h) read this trace; nothing here depends on Z3.
//
// Loops: a constant trip count up to kExactTrip is unrolled exactly. Otherwise (a larger or a
// symbolic trip count T) the trace keeps iterations 0 and 1 and the tail m, m+1, m+2 with
// m = 2 * floor((T - 2) / 2), each guarded by "this iteration exists", so zero-trip
// (PTOAS #533), short and long loops are all real cases and the last iteration is always
// present. docs/solver.md lists what this misses.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov {

// One memory access of an op instance, with its GM box bound to this iteration's values.
struct TraceAccess {
  const MemRef* ref = nullptr;
  bool write = false;
  std::vector<ExprPtr> offsets, sizes;
};

using LoopIteration = std::vector<std::pair<std::string, ExprPtr>>;

struct TraceOp {
  const Op* op = nullptr;
  ExprPtr guard;    // the instance executes iff guard != 0
  ExprPtr eventId;  // SetFlag / WaitFlag: the id in this iteration (constant or symbolic)
  // SyncAll: the participant count and the participant index in this iteration (null if none).
  ExprPtr participants, participantIndex;
  // The loop iteration this instance belongs to: (loop variable, its value here), outermost first.
  // Shared by every instance of the same iteration (copying it per op was a tenth of unrolling).
  std::shared_ptr<const LoopIteration> iteration;
  std::vector<TraceAccess> accesses;  // reads, then writes
};

// An `if` on the trace, so a witness can say which way it went ("took the else of if %p").
struct TraceBranch {
  SourceLoc loc;
  std::string cond;       // the condition as written (its expression text)
  ExprPtr reached, taken;  // the guard of the if, and its condition in this instance
  size_t firstOp = 0;     // the trace ops of both branches start here
};

struct Trace {
  std::vector<TraceOp> ops;          // in issue (program) order
  std::vector<TraceBranch> branches;  // in issue order
  std::vector<ExprPtr> assumptions;  // facts about the symbolic values (e.g. step > 0)
  std::vector<std::string> approximations;  // loops not unrolled exactly, for witnesses and docs
  // Presence conditions of loop iterations and the earlier iterations' they imply: iteration j
  // of a loop runs only if iterations 0 .. j-1 did. Keyed by the condition's node.
  std::map<const Expr*, std::vector<ExprPtr>> earlierIterations;
  bool complete = true;              // false when a construct could not be unrolled
  std::string incompleteReason;
  // Incomplete, and `ops` are the first instances in issue order (at most kMaxPrefixOps of
  // them, up to where unrolling stopped). What they show is real (a wait that starves there
  // starves whatever follows); what they do not show proves nothing.
  bool prefix = false;
};

// Loop variables bound to values, outermost loop first; a name bound twice (a nested loop
// reusing it) reads the innermost binding.
using LoopBindings = std::vector<std::pair<const std::string*, ExprPtr>>;
ExprPtr innermostBinding(const LoopBindings& env, const std::string& var);  // null: not bound

constexpr size_t kMaxTraceOps = 20000;
constexpr size_t kMaxPrefixOps = 500;

// keepPrefix: build the instances up to the limit even when the kernel is sure to exceed it.
Trace unrollKernel(const Kernel& k, bool keepPrefix = false);

}  // namespace ptov
