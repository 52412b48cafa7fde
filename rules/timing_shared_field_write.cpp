// timing-shared-field-write (seed 003 rule 1): judge a field by who still reads it, not by the
// struct it hangs on. A field that sche or aicore also reads and whose value changes every round
// must not be rewritten in place on the shared object: this round's value goes to DevStartArgs
// or a per-slot cache. The reader-set table is configuration (timing.shared-fields).
#include <algorithm>

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

bool fieldMatches(const SharedField& row, const std::pair<std::string, std::string>& view) {
  if (row.structName != "*" && !globMatches(row.structName, view.first)) return false;
  const std::string& path = view.second;
  return path == row.field || path.rfind(row.field + ".", 0) == 0;
}

class TimingSharedFieldWrite : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{
        "timing-shared-field-write",
        "timing",
        Severity::Error,
        "a field other roles read and that changes per round is rewritten in place on the "
        "shared object",
        {"the pypto-machine-code-review timing rules §2 (rule 1: look at who reads it, not where it hangs)",
         upstream::kMachineCodeReview,
         "the pypto-machine-code-review timing rules §2.2 (DevStartArgs carries per-round nrValidAic / scheCpuNum)"}};
    return i;
  }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    const TimingConfig& t = ctx.timing();
    // Who writes: the roles whose entry points reach this function. Unknown (no configured
    // entry reaches it), it is judged as ctrl code, the role whose next round overlaps the
    // previous round's readers (seed 003 §1).
    const MachineFacts& m = *k.cpp->machine;
    std::vector<std::string> writers = rolesOf(m.entries, k.name, t);
    bool roleKnown = !writers.empty();
    // Its files run a role's entry point, and none reaches it: no role runs it (a simulation
    // model's override, code behind a host-only branch).
    if (!roleKnown && !rolesOf(m.fileEntries, "", t).empty()) return;
    if (!roleKnown) writers = {"ctrl"};
    size_t before = ctx.reported();
    for (const FieldWrite& w : m.writes) {
      bool perRoundObject = false;
      for (const auto& view : w.views) perRoundObject |= anyNameMatches(t.perRoundObjects, view.first);
      if (perRoundObject) continue;
      for (const SharedField& row : t.sharedFields) {
        const std::pair<std::string, std::string>* hit = nullptr;
        for (const auto& view : w.views)
          if (!hit && fieldMatches(row, view)) hit = &view;
        if (!hit || !row.perRound || functionMatches(row.allowedIn, k.name)) continue;
        // A role that owns the field's protocol (sche publishing a slot) writes it by design;
        // any other writer races with the readers of the other roles.
        std::vector<std::string> writing;
        for (const auto& r : writers)
          if (std::find(row.owners.begin(), row.owners.end(), r) == row.owners.end()) writing.push_back(r);
        if (writing.empty()) break;
        std::vector<std::string> others;
        for (const auto& r : row.readers)
          if (std::find(writing.begin(), writing.end(), r) == writing.end() || r == "sche") others.push_back(r);
        // Only the writing role reads it: ctrl does not overlap with itself (sche's threads and
        // rounds do, so sche stays a reader of what sche writes).
        if (others.empty()) continue;
        std::string by = joinWithAnd(writing) + (roleKnown ? "" : " (assumed: no configured entry point reaches '" + k.name + "')");
        std::string field = hit->first + "::" + hit->second;
        std::string readers = joinWithAnd(row.readers);
        if (row.perSlot) {
          ctx.report(ReviewGrade::Minor, w.loc,
                     "`" + w.text + "` (" + field + ", written by " + by + " code) is per-slot state read by " + readers +
                         ": this write is safe only once the slot's previous " + joinWithAnd(others) +
                         " has finished with it",
                     row.fix);
        } else {
          ctx.report(ReviewGrade::Blocker, w.loc,
                     "`" + w.text + "` rewrites " + field + " in place on the shared object from " + by +
                         " code, but " + readers +
                         " read it and it changes every round: under early launch the previous round's " +
                         joinWithAnd(others) + " can still read it and see this round's value",
                     row.fix.empty() ? "write this round's value to DevStartArgs or a per-slot cache" : row.fix);
        }
        break;
      }
    }
    // The writes are the function's own: unknown only when its own body was cut.
    if (!m.cut.empty() && m.cut.front().rfind("'" + k.name + "'", 0) == 0)
      reportCutFacts(k, ctx, before, "no shared field other roles read is rewritten in place");
  }
};

}  // namespace

std::unique_ptr<Rule> makeTimingSharedFieldWrite() {
  return std::make_unique<TimingSharedFieldWrite>();
}

}  // namespace ptov
