#pragma once
// Facts of device-side control C++ (PyPTO framework/src/machine: ctrl / sche AICPU code), read
// by the pypto-machine-code-review timing rules. The front end records what the code does
// without knowing the rules' tables (which fields are shared, which calls stop cores): those are
// the rules' options, applied by the rules.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/source_loc.h"

namespace ptov {

// One condition on a path: `atom` is true (positive) or false. The atom is canonical, built from
// the AST with parameters replaced by the caller's arguments: a constant operand goes to the
// right, `!=`, `>` and `>=` are the negations of `==`, `<=` and `<` (so `1 == n`, `n == 1` and
// `!(n != 1)` are one literal). `written` is the condition as the code spells it, for messages,
// and `writtenNegated` says whether it is the atom's negation.
struct PathLiteral {
  PathLiteral(std::string a = "", bool p = true, std::string w = "", bool wn = false)
      : atom(std::move(a)), positive(p), written(std::move(w)), writtenNegated(wn) {}
  std::string atom;
  bool positive = true;
  std::string written;
  bool writtenNegated = false;
  PathLiteral negated() const {
    PathLiteral n = *this;
    n.positive = !positive;
    return n;
  }
};
// Two conjunctions of literals can hold together unless one says `a` and the other `!a`.
bool compatible(const std::vector<PathLiteral>& a, const std::vector<PathLiteral>& b);
// Adds `l` to a path's conjunction; false when the path already says the opposite (no such path).
bool addLiteral(std::vector<PathLiteral>& when, const PathLiteral& l);
std::string describePath(const std::vector<PathLiteral>& when);  // "`a` is true and `b` is false"

// A write to a struct field: `devProg->devArgs.nrValidAic = n`, `++x.count`, `f.store(v)`.
struct FieldWrite {
  SourceLoc loc;
  std::string text;  // the written expression's spelling
  // The field as seen from each struct on the access chain, outermost first:
  // {"DevProg", "devArgs.nrValidAic"}, {"DevArgs", "nrValidAic"}. Subscripts are dropped.
  std::vector<std::pair<std::string, std::string>> views;
};

// The calls of a function in execution order, with its branches and loops: what timing-stop-order
// walks path by path. A call to a function the user's code defines carries that function's body.
// A lambda passed to a call (`ForEachManageAicore([&](int core) {...})`) is the call's child: a
// Loop over its body, run once per element the callee iterates. An `if constexpr` (or an `if` on
// a constant) keeps only the branch taken.
struct ControlNode {
  enum class Kind { Seq, Call, Write, If, Loop, Return, Break, Continue } kind = Kind::Seq;
  SourceLoc loc;
  // Call: the callee's unqualified name; Write: the written field (`waveBufferCpuToCore`);
  // If / Loop: the condition's spelling; an alternative of a switch (a Seq under an If): its case label
  std::string name;
  std::string text;   // Call: the whole call's spelling; Write: the stored value's spelling
  std::string macro;  // Call: the macro the call was written with, "" if none
  // Seq: statements; If: {then, else}, or a switch's alternatives; Loop: {body}; Call: {callee body}
  std::vector<ControlNode> children;
};

// One value a timeout may have, and the conditions under which it has it.
struct TimeoutValue {
  SourceLoc loc;                     // where the value is written
  std::string text;                  // TIMEOUT_A2A3_100US, GetOsThrottleSafeWaitTimeout(archInfo), 5000
  std::optional<int64_t> value;      // folded, when it is a constant
  std::vector<std::string> through;  // calls the value was resolved through (outermost first)
  std::vector<std::string> names;    // constant and macro names met on the way (for units: ..._100MS)
  std::vector<PathLiteral> when;
  int64_t factor = 1;  // a named duration multiplied by this (`TIMEOUT_A5_50US * 5`)
};

// One way out of a spin wait's timeout branch.
struct WaitExit {
  SourceLoc loc;
  enum class Kind { Return, Break, FallThrough } kind = Kind::FallThrough;
  std::string returned;            // Return: the returned value's spelling
  std::vector<std::string> calls;  // calls on the way (callee and macro names)
  std::vector<PathLiteral> when;
  bool retried = false;          // the path goes on to wait again (the next arbitration level): a degradation
  bool decidedByCaller = false;  // the function returns here and its callers decide (SpinWait::callers)
};

// A spin wait seen from one call site of the function it is in, when that function returns on
// timeout and the caller decides what the failure means: `if (!WaitCtrlRoundReady(...))`, then
// `level = n == 1 ? FAILED : DROPPED`, then `if (level == FAILED) DEV_ERROR(...)`.
struct WaitContext {
  SourceLoc call;      // the call site
  std::string caller;  // the calling function
  // The wait's timeout values, their conditions written in the caller's terms (parameters
  // replaced by the call's arguments).
  std::vector<TimeoutValue> values;
  std::vector<WaitExit> exits;  // what the caller does on the paths where the call failed
};

// A loop polling shared state with a timeout: `while (!flag) { if (now - start > t) {...} }`.
struct SpinWait {
  SourceLoc loc;            // the loop
  std::string polled;       // the loop's condition, or the polled expression
  bool sharedPoll = false;  // the poll reads a field, a pointer, a call or a volatile / atomic
  SourceLoc checkLoc;       // the timeout comparison
  std::string timeoutText;  // the timeout operand's spelling
  // Where the wait's timeout comes from: the operand, followed through locals given their value
  // once (`uint64_t t = CalcWaitTimeout(single, false);`), and its spelling.
  SourceLoc timeoutLoc;
  std::string timeoutSource;
  std::vector<TimeoutValue> values;
  std::vector<WaitExit> exits;
  std::vector<WaitContext> callers;  // for the exits decided by a caller
  // Some paths were not walked (a walk's budget: values, exits or callers left out), so no
  // finding on this wait is no proof.
  bool pathsCut = false;
};

struct MachineFacts {
  // Functions of the call tree Clang did not read whole ("'F': 12: use of undeclared ..."): a
  // rule that finds nothing here answers unknown, since what was dropped may hold it.
  std::vector<std::string> cut;
  // The entry points that reach this function through calls, constructions and functions named
  // in the code (qualified names: extern "C" functions and functions nothing calls), over all the
  // inputs of the run (linkInputs joins them by USR); the timing rules map them to roles.
  std::vector<std::string> entries;
  // The extern "C" functions of the files that model it: when one of them is a configured
  // entry point and none reaches this function, no role runs it.
  std::vector<std::string> fileEntries;
  // The function's identity across translation units (its Clang USR) and those of the functions
  // it calls or constructs with: linkInputs joins the inputs' call graphs through them, so the
  // entry points of another input reach it (a ctrl entry in device_ctrl.cpp calling a function
  // of device_task_context.cpp).
  std::string usr;
  std::vector<std::string> calls;
  std::vector<FieldWrite> writes;
  ControlNode body;
  std::vector<SpinWait> waits;
};

}  // namespace ptov
