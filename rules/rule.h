#pragma once
// The rule interface. A rule reads only the kernel model and reports findings.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "rules/timing_config.h"
#include "solver/proofs.h"
#include "solver/verdict.h"

namespace ptov {

enum class Severity { Note = 0, Warning = 1, Error = 2 };
const char* severityName(Severity s);
bool parseSeverity(const std::string& s, Severity& out);

struct RuleInfo {
  std::string id;       // stable, lower-case, family-name
  std::string family;   // comm, sync, barrier, abi, ub, cache, timing, xcheck
  Severity severity = Severity::Error;
  std::string summary;  // one line
  std::vector<std::string> references;  // upstream documents (title and link), issues, commits
};

// Per-rule integer options: rule id -> option -> value.
using RuleOptions = std::map<std::string, std::map<std::string, int64_t>>;

// What .ptoverify.yaml tells the rules: integer options and seed 003's timing tables.
struct RuleSettings {
  RuleOptions options;
  TimingConfig timing = defaultTimingConfig();
  // Kernel parameters only the host reads, after the kernel (`host-read:`): no peer reads
  // them, so no notify publishes a write to them.
  std::set<std::string> hostRead;
};

// Seed 003's review levels, mapped onto severities: Blocker = error, Major = warning, Minor = note.
enum class ReviewGrade { Blocker, Major, Minor };
const char* gradeName(ReviewGrade g);

struct FindingNote {
  SourceLoc loc;
  std::string message;
};

struct Finding {
  std::string ruleId;
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  std::vector<FindingNote> notes;  // related locations
  // A proof rule's answer: the witness of a violation (printed as notes), or "could not
  // decide" (unknown = true: shown as `unknown:`, never counted as a pass; exit 3 under --strict).
  std::shared_ptr<const Witness> witness;
  bool unknown = false;
  std::string grade;        // the review level a timing rule gives it (Blocker / Major / Minor), or ""
  std::string fix;          // how to fix it, for review comments ("" when the message says it)
  std::string kernel;       // the kernel (function) it was found in
  std::string fingerprint;  // stable identity of the fact, independent of line numbers (cli/fingerprint)
};
// "error", "warning", "note", or "unknown" for an undecided proof.
const char* findingLevel(const Finding& f);

struct CheckOptions {
  std::string arch = "a2a3";
};

class RuleContext {
 public:
  RuleContext(const RuleInfo& info, const Kernel& kernel, std::vector<Finding>& sink, ProofContext& proofs,
              const RuleSettings* settings = nullptr)
      : info_(info), kernel_(kernel), sink_(sink), proofs_(proofs), settings_(settings) {}

  const Kernel& kernel() const { return kernel_; }
  const std::string& arch() const { return kernel_.arch; }
  // The kernel's unrolled trace and the solver, shared by every rule of this kernel.
  ProofContext& proofs() { return proofs_; }
  // The configured value of one of the rule's options, if set.
  std::optional<int64_t> option(const std::string& name) const;
  // How many findings the rules have reported on this kernel so far.
  size_t reported() const { return sink_.size(); }
  // Seed 003's tables, as configured.
  const TimingConfig& timing() const { return settings_ ? settings_->timing : defaultTimingConfig(); }
  // Is kernel parameter `name` (a `.pto` one with its '%') declared host-read in the configuration?
  bool hostRead(const std::string& name) const {
    std::string bare = !name.empty() && name[0] == '%' ? name.substr(1) : name;
    return settings_ && settings_->hostRead.count(bare) > 0;
  }

  // Reports a finding with the rule's default severity (or `sev` when given).
  Finding& report(const SourceLoc& loc, const std::string& message);
  Finding& report(Severity sev, const SourceLoc& loc, const std::string& message);
  // A review finding: the grade picks the severity; `fix` is the suggested change.
  Finding& report(ReviewGrade grade, const SourceLoc& loc, const std::string& message, const std::string& fix);
  // Reports a proof's answer: Violated -> finding with its witness; Unknown -> an `unknown`
  // finding with the reason; Proved -> nothing (returns null).
  Finding* reportVerdict(const Verdict& v, const SourceLoc& loc, const std::string& message);

 private:
  const RuleInfo& info_;
  const Kernel& kernel_;
  std::vector<Finding>& sink_;
  ProofContext& proofs_;
  const RuleSettings* settings_;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // The integer options the rule reads (`options:` in .ptoverify.yaml); none by default.
  virtual std::vector<std::string> options() const { return {}; }
  virtual void check(const Kernel& kernel, RuleContext& ctx) const = 0;
};

// Every rule, in the order `ptoverify rules` lists them (rules/registry.cpp).
const std::vector<std::unique_ptr<Rule>>& allRules();
const Rule* findRule(const std::string& id);
// The documentation page docs/rules/<id>.md, compiled into the binary ("" if none).
std::string ruleDoc(const std::string& id);
// Does `name` match `glob` (`*` matches any run of characters)? Linear in each, per star.
bool globMatches(const std::string& glob, const std::string& name);
// True when `id` matches one of the globs (`*` wildcard; a leading '-' removes).
bool ruleEnabled(const std::string& id, const std::vector<std::string>& globs);
// Does any rule remain enabled under `globs`? ('-*' leaves none: a gate that checks nothing.)
bool anyRuleEnabled(const std::vector<std::string>& globs);

// What ruleApplies reads of a kernel's ops, gathered in one walk (asking each rule's question
// with its own walk was a few per cent of a .pto run).
struct KernelTraits {
  uint64_t kinds = 0;          // bit (1 << OpKind) for each kind present
  bool hivmCrossCore = false;  // a hivm.hir cross-core set/wait or barrier
  bool softSync = false;       // a soft (software) all-core barrier
  bool cachePolicy = false;    // an op with a cache policy, or a synthetic (policy) parameter
  bool has(OpKind k) const { return kinds >> static_cast<unsigned>(k) & 1; }
};
KernelTraits kernelTraits(const Kernel& k);

// Does the rule have anything to check in this kernel (the ops it reads are there)?
bool ruleApplies(const std::string& id, const Kernel& k, const RuleSettings* settings = nullptr);
bool ruleApplies(const std::string& id, const Kernel& k, const KernelTraits& traits, const RuleSettings* settings);
// Why a rule that applies to a kernel cannot fully decide it in this run ("" when it can): the
// facts it needs are missing, e.g. "no launch linked". Audit says "not checked: <why>" then.
std::string ruleNotChecked(const std::string& id, const Kernel& k);

// Runs `body` on a thread with a 512 MB stack and waits for it (runRules does, for the proofs'
// recursion); nested calls run in place. A caller that runs many kernels wraps its whole loop,
// so each kernel does not pay a hand-over between threads.
void onLargeStack(const std::function<void()>& body);

// Runs task(0) .. task(count - 1) on up to `threads` threads, each on a large stack, and
// returns when all are done (the first exception a task threw is rethrown here). The threads
// are started once and kept for the process.
void onLargeStacks(size_t count, unsigned threads, const std::function<void(size_t)>& task);

// Runs the enabled rules over one kernel; findings are sorted by location. Proof rules use
// `solver` (a default one when null).
std::vector<Finding> runRules(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver = nullptr,
                              const RuleSettings* settings = nullptr);

}  // namespace ptov
