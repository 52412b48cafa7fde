#pragma once
// Helpers shared by the pypto-machine-code-review timing rules: matching configured names
// against functions and calls.
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/machine_facts.h"

namespace ptov {

// Does one of the `*` globs (globMatches, rules/rule.h) match the name?
bool anyNameMatches(const std::vector<std::string>& globs, const std::string& name);

// The names of the steps of stopping cores and reclaiming slots: timing-stop-order's options
// (STOP visible -> fence -> clear slots -> fence -> GOODBYE).
struct StopNames {
  std::vector<std::string> stopCalls;
  std::string stopMarker;  // a stop call counts when its spelling contains this ("" = always)
  std::vector<std::string> fenceCalls, clearCalls, goodbyeCalls;
  std::vector<std::string> goodbyeValues;  // a field store of one of these values is GOODBYE
  // Closing a core's fast-path register: a call of these names, or any call whose spelling holds
  // one of the close values. A fence must separate a close from GOODBYE.
  std::vector<std::string> closeCalls, closeValues;
  // Reclaiming a slot after waiting for sche but not for the AICores (empty: not checked). A
  // wait is a call, or a loop whose condition polls a counter (`scheExitCount`).
  std::vector<std::string> scheWaitCalls, aicoreWaitCalls, reclaimCalls;
  std::vector<std::string> scheWaitPolls, aicoreWaitPolls;
};

// Does a glob match the function, by its qualified (`AicoreHal::ResetShakeBuf`) or plain name?
bool functionMatches(const std::vector<std::string>& globs, const std::string& qualifiedName);
// Does a glob match the call's callee or the macro it was written with?
bool callMatches(const std::vector<std::string>& globs, const ControlNode& call);
// The steps of stopping cores and reclaiming slots (timing-stop-order), by the configured names.
enum class Step { None, Stop, Fence, Clear, Goodbye, Close, ScheWait, AicoreWait, Reclaim };
Step stepOf(const ControlNode& call, const StopNames& t);
// A call named as one step whose body (carried in the tree) takes steps of another kind is walked
// into rather than taken as that step: HEAD's `ResetShakeBuf` stores GOODBYE and then clears.
bool walkedInto(const ControlNode& call, const StopNames& t);

// The steps a function's call tree takes, counting the callees it carries.
struct StopSteps {
  std::set<Step> found;
  bool own = false;  // a step is written in the function itself, not only in a callee
  bool stops() const { return found.count(Step::Stop) && (found.count(Step::Clear) || found.count(Step::Goodbye)); }
  bool reclaimsAfterWait() const {
    return found.count(Step::ScheWait) && (found.count(Step::Clear) || found.count(Step::Reclaim));
  }
  // The function stops cores or reclaims slots itself: timing-stop-order checks (and applies to) it.
  bool qualifies() const { return own && (stops() || reclaimsAfterWait()); }
};
StopSteps stopStepsOf(const ControlNode& body, const StopNames& t);
// When Clang did not read part of the function's call tree (MachineFacts::cut) and the rule
// found nothing there, it answers unknown: what was dropped may hold what it looks for.
class RuleContext;
struct Kernel;
void reportCutFacts(const Kernel& k, RuleContext& ctx, size_t findingsBefore, const std::string& what);

// The first name of a list, for fix texts ("" when empty).
std::string firstName(const std::vector<std::string>& names, const std::string& fallback);

}  // namespace ptov
