#pragma once
// The rule interface. A rule reads only the kernel model and reports findings.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "rules/rule_option.h"
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
  // What it does not check, one statement each: its page's "What it does not check" section
  // lists the same (tests/test_rules.cpp compares them).
  std::vector<std::string> notCovered;
};

// What .ptoverify.yaml tells the rules: their configured options, and the host-read parameters.
struct RuleSettings {
  RuleOptions options;
  // Kernel parameters only the host reads, after the kernel (`host-read:`): no peer reads
  // them, so no notify publishes a write to them.
  std::set<std::string> hostRead;
};

// The review levels of the pypto-machine-code-review timing rules, mapped onto severities:
// Blocker = error, Major = warning, Minor = note.
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

class Rule;

// A rule's option as the rule reads it: the configured value (settings may be null), else the
// default for `arch`. Throws std::logic_error for an option the rule does not declare.
const std::any& optionValue(const Rule& rule, const std::string& name, const std::string& arch,
                            const RuleSettings* settings);
template <class T>
const T& optionAs(const Rule& rule, const std::string& name, const std::string& arch, const RuleSettings* settings) {
  const T* v = std::any_cast<T>(&optionValue(rule, name, arch, settings));
  if (!v) throw std::logic_error("option '" + name + "' is not read as this type");
  return *v;
}

class RuleContext {
 public:
  RuleContext(const Rule& rule, const Kernel& kernel, std::vector<Finding>& sink, ProofContext& proofs,
              const RuleSettings* settings = nullptr);

  const Kernel& kernel() const { return kernel_; }
  const std::string& arch() const { return kernel_.arch; }
  // The kernel's unrolled trace and the solver, shared by every rule of this kernel.
  ProofContext& proofs() { return proofs_; }
  // One of the rule's options (Rule::options): the configured value, else its default for the
  // kernel's arch, as the option's reader made it (an integer option is an int64_t).
  template <class T>
  const T& option(const std::string& name) const {
    return optionAs<T>(rule_, name, arch(), settings_);
  }
  int64_t option(const std::string& name) const { return option<int64_t>(name); }
  // The configuration (null: every option has its default), for helpers that read options
  // outside check() (optionAs).
  const RuleSettings* settings() const { return settings_; }
  // How many findings the rules have reported on this kernel so far.
  size_t reported() const { return sink_.size(); }
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
  const Rule& rule_;
  const Kernel& kernel_;
  std::vector<Finding>& sink_;
  ProofContext& proofs_;
  const RuleSettings* settings_;
};

// What the rules' applicability reads of a kernel's ops, gathered in one walk (asking each
// rule's question with its own walk was a few per cent of a .pto run).
struct KernelTraits {
  uint64_t kinds = 0;          // bit (1 << OpKind) for each kind present
  bool hivmCrossCore = false;  // a hivm.hir cross-core set/wait or barrier
  bool softSync = false;       // a soft (software) all-core barrier
  bool cachePolicy = false;    // an op with a cache policy, or a synthetic (policy) parameter
  bool has(OpKind k) const { return kinds >> static_cast<unsigned>(k) & 1; }
  bool hasAny(std::initializer_list<OpKind> ks) const {
    for (OpKind k : ks)
      if (has(k)) return true;
    return false;
  }
};
KernelTraits kernelTraits(const Kernel& k);

// Any op can hide behind a call or op the front end did not model, or code it skipped.
bool gapHidesOps(ModelGap::Kind kind);
// ... and an unresolved address hides which buffer an access or a cache op covers.
bool gapHidesAccesses(ModelGap::Kind kind);

// A rule: its facts (id, options, what it reads, which gaps touch it) and its check. It reads
// only the kernel model and reports findings.
class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // The options it reads, with their defaults and readers; none by default.
  virtual std::vector<RuleOption> options() const { return {}; }
  // Does the kernel have what the rule reads (else audit says "not applicable")? Control code
  // (a `machine` kernel, no ops) is read only by the rules that say readsControlCode().
  bool appliesTo(const Kernel& k, const KernelTraits& t, const RuleSettings* settings) const;
  // Why it cannot fully decide this kernel in this run ("" when it can): facts it needs are
  // missing, e.g. "no launch linked". Audit says "not checked: <why>" then.
  virtual std::string notChecked(const Kernel&) const { return ""; }
  // Does a gap of this kind (a construct the front end did not model) touch the facts it reads?
  virtual bool affectedBy(ModelGap::Kind kind) const { return gapHidesOps(kind); }
  virtual void check(const Kernel& kernel, RuleContext& ctx) const = 0;

 protected:
  virtual bool readsControlCode() const { return false; }
  virtual bool applies(const Kernel& k, const KernelTraits& t, const RuleSettings& settings) const = 0;
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

// Runs the enabled rules over one kernel; findings are sorted by location. Proof rules use
// `solver` (a default one when null).
std::vector<Finding> runRules(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver = nullptr,
                              const RuleSettings* settings = nullptr);

}  // namespace ptov
