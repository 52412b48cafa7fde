#pragma once
// The tables of seed 003's timing rules (timing-shared-field-write, timing-stop-order,
// timing-hard-wait-timeout): which fields are read by which roles, what each stop step is called,
// what a hard failure looks like. Defaults are the names the seed gives; `timing:` in
// .ptoverify.yaml changes them (docs/config.md). Names are globs (`*` matches any run).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptov {

// One row of the reader-set table (seed 003 §2.1).
struct SharedField {
  std::string structName;              // the struct the field is reached from, `*` for any
  std::string field;                   // path from that struct: devArgs.nrValidAic
  std::vector<std::string> readers;    // roles that read it: ctrl, sche, aicore
  std::vector<std::string> owners;     // roles whose writes are the field's protocol (sche hands out slots)
  bool perRound = true;                // its value changes from round to round
  bool perSlot = false;                // it lives in a per-slot object: writes are reminders, not Blockers
  std::vector<std::string> allowedIn;  // functions that own the protocol writing it
  std::string fix;                     // where the value should live / what to do instead
};

struct TimingConfig {
  // Which role runs a function: the entry points that reach it (MachineFacts::entries), by role.
  std::map<std::string, std::vector<std::string>> roleEntries;

  // timing-shared-field-write
  std::vector<SharedField> sharedFields;
  std::vector<std::string> perRoundObjects;  // writes through these types are per-round: never reported

  // timing-stop-order: STOP visible -> fence -> clear slots -> fence -> GOODBYE
  std::vector<std::string> stopCalls;
  std::string stopMarker;  // a stop call counts when its spelling contains this ("" = always)
  std::vector<std::string> fenceCalls, clearCalls, goodbyeCalls;
  std::vector<std::string> goodbyeValues;  // a field store of one of these values is GOODBYE
  // Closing a core's fast-path register: a call of these names, or any call whose spelling holds
  // one of the close values (`WriteReg32(c, REG_SPR_FAST_PATH_ENABLE, REG_SPR_FAST_PATH_CLOSE)`).
  // A fence must separate a close from GOODBYE.
  std::vector<std::string> closeCalls, closeValues;
  // Reclaiming a slot after waiting for sche but not for the AICores (empty: not checked). A
  // wait is a call, or a loop whose condition polls a counter (`scheExitCount`).
  std::vector<std::string> scheWaitCalls, aicoreWaitCalls, reclaimCalls;
  std::vector<std::string> scheWaitPolls, aicoreWaitPolls;

  // timing-hard-wait-timeout
  std::vector<std::string> safeTimeoutCalls;               // calls that return the OS-throttle-safe timeout
  std::map<std::string, std::string> safeWindowConstants;  // arch -> the constant equal to the window
  int64_t safeWindowMs = 100;
  std::vector<std::string> hardFailureCalls;  // a call that makes the timeout branch a hard failure
  std::vector<std::string> errorReturns;      // a returned value that does
  std::vector<std::string> degradeCalls;      // a call that makes it a degradation (never reported)
  std::vector<std::string> ignorePolls;       // polled expressions that are not another AICPU
};

// Seed 003's names and table.
const TimingConfig& defaultTimingConfig();

// The roles whose entry points reach a function (sorted; empty when none is known).
std::vector<std::string> rolesOf(const std::vector<std::string>& entries, const std::string& function,
                                 const TimingConfig& t);

// Does one of the `*` globs (globMatches, rules/rule.h) match the name?
bool anyNameMatches(const std::vector<std::string>& globs, const std::string& name);

}  // namespace ptov
