// timing-shared-field-write (the pypto-machine-code-review timing rules, rule 1): judge a field by
// who still reads it, not by the struct it hangs on. A field that sche or aicore also reads and
// whose value changes every round must not be rewritten in place on the shared object: this round's
// value goes to DevStartArgs or a per-slot cache. The reader-set table is configuration
// (timing.shared-fields). Who writes is the role whose entry point reaches the function; when none
// does, the answer is unknown.
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

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return !k.cpp->machine->writes.empty();
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }
  bool readsControlCode() const override { return true; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    const TimingConfig& t = ctx.timing();
    // Who writes: the roles whose entry points reach this function, over every input.
    const MachineFacts& m = *k.cpp->machine;
    std::vector<std::string> writers = rolesOf(m.entries, k.name, t);
    bool roleKnown = !writers.empty();
    // Its files run a role's entry point, and none reaches it: no role runs it (a simulation
    // model's override, code behind a host-only branch).
    if (!roleKnown && !rolesOf(m.fileEntries, "", t).empty()) return;
    size_t before = ctx.reported();
    // One finding per field this function writes: the first write, the others as notes.
    struct FieldWrites {
      const SharedField* row;
      std::string field;
      std::vector<const FieldWrite*> writes;
    };
    std::vector<FieldWrites> fields;
    for (const FieldWrite& w : m.writes) {
      bool perRoundObject = false;
      for (const auto& view : w.views) perRoundObject |= anyNameMatches(t.perRoundObjects, view.first);
      if (perRoundObject) continue;
      for (const SharedField& row : t.sharedFields) {
        const std::pair<std::string, std::string>* hit = nullptr;
        for (const auto& view : w.views)
          if (!hit && fieldMatches(row, view)) hit = &view;
        if (!hit || !row.perRound || functionMatches(row.allowedIn, k.name)) continue;
        std::string field = hit->first + "::" + hit->second;
        auto same = std::find_if(fields.begin(), fields.end(), [&](const FieldWrites& f) { return f.field == field; });
        if (same == fields.end()) same = fields.insert(fields.end(), FieldWrites{&row, field, {}});
        same->writes.push_back(&w);
        break;
      }
    }
    for (const FieldWrites& f : fields) {
      if (!roleKnown) {
        // Unknown: a write that would race for one of the roles that could run it is unknown.
        for (const auto& [role, globs] : t.roleEntries)
          if (!overlappingReaders(*f.row, {role}).second.empty()) {
            reportUnknownRole(k, f.writes, f.field, ctx);
            break;
          }
        continue;
      }
      auto [writing, others] = overlappingReaders(*f.row, writers);
      if (!writing.empty() && !others.empty()) report(f.writes, *f.row, f.field, writing, others, ctx);
    }
    // The writes are the function's own: unknown only when its own body was cut.
    if (!m.cut.empty() && m.cut.front().rfind("'" + k.name + "'", 0) == 0)
      reportCutFacts(k, ctx, before, "no shared field other roles read is rewritten in place");
  }

 private:
  // The writers that do not own the field's protocol (sche publishing a slot writes it by design),
  // and the readers their write overlaps: the other roles, and sche itself (sche's threads and
  // rounds overlap; ctrl does not overlap with itself).
  static std::pair<std::vector<std::string>, std::vector<std::string>> overlappingReaders(
      const SharedField& row, const std::vector<std::string>& writers) {
    std::vector<std::string> writing, others;
    for (const auto& r : writers)
      if (std::find(row.owners.begin(), row.owners.end(), r) == row.owners.end()) writing.push_back(r);
    if (writing.empty()) return {};
    for (const auto& r : row.readers)
      if (std::find(writing.begin(), writing.end(), r) == writing.end() || r == "sche") others.push_back(r);
    return {writing, others};
  }

  static void report(const std::vector<const FieldWrite*>& writes, const SharedField& row, const std::string& field,
                     const std::vector<std::string>& writing, const std::vector<std::string>& others,
                     RuleContext& ctx) {
    const FieldWrite& w = *writes.front();
    std::string by = joinWithAnd(writing);
    std::string readers = joinWithAnd(row.readers);
    std::string more = alsoWritten(writes);
    Finding* f;
    if (row.perSlot) {
      f = &ctx.report(ReviewGrade::Minor, w.loc,
                      "`" + w.text + "`" + more + " (" + field + ", written by " + by +
                          " code) is per-slot state read by " + readers + ": this write is safe only once the slot's "
                          "previous " + joinWithAnd(others) + " has finished with it",
                      row.fix);
    } else {
      f = &ctx.report(ReviewGrade::Blocker, w.loc,
                      "`" + w.text + "` rewrites " + field + " in place on the shared object from " + by + " code" +
                          more + ", but " + readers +
                          " read it and it changes every round: under early launch the previous round's " +
                          joinWithAnd(others) + " can still read it and see this round's value",
                      row.fix.empty() ? "write this round's value to DevStartArgs or a per-slot cache" : row.fix);
    }
    notesForOtherWrites(writes, *f);
  }

  // " (here and in 2 more places in this function)" for a field written several times.
  static std::string alsoWritten(const std::vector<const FieldWrite*>& writes) {
    if (writes.size() < 2) return "";
    size_t n = writes.size() - 1;
    return " (here and in " + std::to_string(n) + " more place" + (n > 1 ? "s" : "") + " in this function)";
  }
  static void notesForOtherWrites(const std::vector<const FieldWrite*>& writes, Finding& f) {
    for (size_t i = 1; i < writes.size(); ++i)
      f.notes.push_back({writes[i]->loc, "also written here: `" + writes[i]->text + "`"});
  }

  // No configured entry point reaches the function: which role runs it decides whether the write
  // races, so the answer is unknown, not a guess.
  static void reportUnknownRole(const Kernel& k, const std::vector<const FieldWrite*>& writes, const std::string& field,
                                RuleContext& ctx) {
    const FieldWrite& w = *writes.front();
    Finding* f = ctx.reportVerdict(
        Verdict::unknown("no configured entry point (timing.roles) reaches '" + k.name +
                         "' through the inputs' calls, so the role that runs it is unknown; add the input with its "
                         "entry point, or name the entry under timing.roles"),
        w.loc, "`" + w.text + "`" + alsoWritten(writes) + " does not rewrite " + field +
                   " in place while another role reads it");
    if (f) notesForOtherWrites(writes, *f);
  }
};

}  // namespace

std::unique_ptr<Rule> makeTimingSharedFieldWrite() {
  return std::make_unique<TimingSharedFieldWrite>();
}

}  // namespace ptov
