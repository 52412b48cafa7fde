// timing-shared-field-write (the pypto-machine-code-review timing rules, rule 1): judge a field by
// who still reads it, not by the struct it hangs on. A field that sche or aicore also reads and
// whose value changes every round must not be rewritten in place on the shared object: this round's
// value goes to DevStartArgs or a per-slot cache. The reader-set table is configuration
// (timing.shared-fields). Who writes is the role whose entry point reaches the function; when none
// does, the answer is unknown.
#include <algorithm>
#include <map>

#include "analyzer/model/cpp_facts.h"
#include "rules/rule.h"
#include "rules/timing_queries.h"
#include "rules/upstream_docs.h"

namespace ptov {
namespace {

const std::vector<std::string> kRoles = {"ctrl", "sche", "aicore"};

// One row of the reader-set table (the pypto-machine-code-review timing rules §2.1).
struct SharedField {
  std::string structName = "*";        // the struct the field is reached from, `*` for any
  std::string field;                   // path from that struct: devArgs.nrValidAic
  std::vector<std::string> readers;    // roles that read it: ctrl, sche, aicore
  std::vector<std::string> owners;     // roles whose writes are the field's protocol (sche hands out slots)
  bool perRound = true;                // its value changes from round to round
  bool perSlot = false;                // it lives in a per-slot object: writes are reminders, not Blockers
  std::vector<std::string> allowedIn;  // functions that own the protocol writing it
  std::string fix;                     // where the value should live / what to do instead
};
using RoleEntries = std::map<std::string, std::vector<std::string>>;  // role -> its entry points' globs

SharedField readRow(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap())
    failAt(n, "a shared field is a mapping {struct, field, readers, owners, per-round, per-slot, allowed-in, fix}");
  SharedField f;
  bool haveField = false;
  for (const auto& kv : n) {
    std::string k = kv.first.Scalar();
    const std::string key = what + "." + k;
    if (k == "struct") f.structName = readScalar(kv.second, key);
    else if (k == "field") f.field = readScalar(kv.second, key), haveField = true;
    else if (k == "readers") f.readers = readNamesOf(kv.second, key, "a reader", kRoles);
    else if (k == "owners") f.owners = readNamesOf(kv.second, key, "an owner", kRoles);
    else if (k == "per-round") f.perRound = readBoolean(kv.second, key);
    else if (k == "per-slot") f.perSlot = readBoolean(kv.second, key);
    else if (k == "allowed-in") f.allowedIn = readNames(kv.second, key);
    else if (k == "fix") f.fix = readScalar(kv.second, key);
    else
      failAt(kv.first, "unknown key '" + k + "' (struct, field, readers, owners, per-round, per-slot, allowed-in, fix)");
  }
  if (!haveField) failAt(n, "a shared field needs field:");
  if (f.structName.empty()) f.structName = "*";
  return f;
}

std::vector<SharedField> readRows(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) failAt(n, what + " must be a list");
  std::vector<SharedField> rows;
  for (const auto& row : n) rows.push_back(readRow(row, what));
  return rows;
}

YAML::Node rowNode(const SharedField& f) {
  YAML::Node n(YAML::NodeType::Map);
  n["struct"] = f.structName;
  n["field"] = f.field;
  n["readers"] = flowList(f.readers);
  n["owners"] = flowList(f.owners);
  n["per-round"] = f.perRound;
  n["per-slot"] = f.perSlot;
  n["allowed-in"] = flowList(f.allowedIn);
  n["fix"] = f.fix;
  return n;
}

// A configured row with the struct and field of a row it overrides replaces that row; any other
// row is added.
YAML::Node mergeRows(const YAML::Node& configured, const YAML::Node& current, const std::string& what) {
  std::vector<SharedField> added = readRows(configured, what), kept = readRows(current, what);
  auto sameRowIn = [](const std::vector<SharedField>& rows, const SharedField& row) {
    return std::find_if(rows.begin(), rows.end(), [&](const SharedField& r) {
      return r.structName == row.structName && r.field == row.field;
    });
  };
  YAML::Node out(YAML::NodeType::Sequence);
  // (Nodes are pushed, never assigned: assigning a YAML::Node rewrites the node it referred to.)
  for (size_t i = 0; i < kept.size(); ++i) {
    auto same = sameRowIn(added, kept[i]);
    out.push_back(same != added.end() ? rowNode(*same) : current[i]);
  }
  for (const SharedField& row : added)
    if (sameRowIn(kept, row) == kept.end()) out.push_back(rowNode(row));
  return out;
}

// The reader-set table of the pypto-machine-code-review timing rules §2.1, with their names
// (DevProg, shake) and cann/pypto's (DevAscendProgram, the shake buffers).
YAML::Node defaultRows() {
  const std::string devStartArgs =
      "keep only the full-core capacity in the shared `DevProg.devArgs` and write this round's value to "
      "`DevStartArgs` (ring-slot local, read by sche through its own round's args)";
  const std::string slotProtocol =
      "do not use it as this round's private buffer: hand the slot back through the stop sequence (STOP visible, "
      "fence, `ResetParallelDevTask`, fence, `ResetShakeBuf`; see timing-stop-order)";
  std::vector<SharedField> rows;
  for (const char* prog : {"DevProg", "DevAscendProgram"}) {
    rows.push_back({prog, "ctrlFlowCacheAnchor", {"ctrl"}, {}, true, false, {}, ""});
    rows.push_back({prog, "memBudget", {"ctrl"}, {}, true, false, {}, ""});
    rows.push_back({prog, "devArgs.nrValidAic", {"ctrl", "sche"}, {}, true, false, {}, devStartArgs});
    rows.push_back({prog, "devArgs.scheCpuNum", {"ctrl", "sche"}, {}, true, false, {}, devStartArgs});
    rows.push_back({prog,
                    "runtimeDataRingBufferInited",
                    {"ctrl", "sche"},
                    {},
                    true,
                    false,
                    // cann/pypto's ctrl sets it in InitDevProgram, right after initialising the ring head.
                    {"*RuntimeDataRingBuffer*", "InitDevProgram"},
                    "use the existing ring protocol (`RuntimeDataRingBufferHeadAllocate` / `AllocatePrepare` / "
                    "`AllocateSubmit` / `Deallocate`, and waiting for `runtimeDataRingBufferInited`) instead of a "
                    "second writer"});
  }
  rows.push_back(
      {"*", "parallelDevTask", {"sche", "aicore"}, {"sche"}, true, false, {"ResetParallelDevTask"}, slotProtocol});
  for (const char* shake : {"shake", "shakeBuffer", "shakeBufferCpuToCore", "waveBufferCpuToCore"})
    rows.push_back({"*", shake, {"sche", "aicore"}, {"sche"}, true, false, {"ResetShakeBuf*"}, slotProtocol});
  rows.push_back({"*", "rawTensorAddr", {"ctrl", "aicore"}, {}, true, true, {},
                  "before this CF-cache slot is reused, wait until the AICores of its previous round have exited "
                  "(restore only then)"});
  YAML::Node out(YAML::NodeType::Sequence);
  for (const auto& r : rows) out.push_back(rowNode(r));
  return out;
}

RoleEntries readRoles(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) failAt(n, what + " must map a role (ctrl, sche, aicore) to entry-point names");
  RoleEntries out;
  for (const auto& r : n) {
    std::string role = r.first.Scalar();
    if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end())
      failAt(r.first, "a role is ctrl, sche or aicore, not '" + role + "'");
    out[role] = readNames(r.second, what + "." + role);
  }
  return out;
}

// cann/pypto's entry points: device_ctrl.cpp (ctrl) and device_sche.cpp (sche).
YAML::Node defaultRoles() {
  YAML::Node n(YAML::NodeType::Map);
  n["aicore"] = flowList({});
  n["ctrl"] = flowList({"PyptoKernelCtrlServer*"});
  n["sche"] = flowList({"DynTileFwkBackendKernelServer*", "StaticTileFwkBackendKernelServer*"});
  return n;
}

// The roles whose entry points reach a function (sorted; empty when none is known).
std::vector<std::string> rolesOf(const std::vector<std::string>& entries, const std::string& function,
                                 const RoleEntries& roles) {
  std::vector<std::string> out;
  for (const auto& [role, globs] : roles) {
    bool reached = anyNameMatches(globs, function);
    for (const auto& e : entries) reached |= anyNameMatches(globs, e);
    if (reached) out.push_back(role);
  }
  return out;
}

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
         "the pypto-machine-code-review timing rules §2.2 (DevStartArgs carries per-round nrValidAic / scheCpuNum)"},
        // What it does not check: its page's section of that name.
        {"Reads are not checked, only writes: a new read of a shared field across rounds is not found.",
         "Readers are the table's, not the code's: a field is as shared as its row says.",
         "A function reached only through a pointer stored elsewhere has no role from that path; its writes are "
         "`unknown`."}};
    return i;
  }

  // The reader-set table and who runs what (docs/config.md lists them under `timing:`, their
  // older place). Only this rule asks which role runs a function, so the role table is its option.
  std::vector<RuleOption> options() const override {
    RuleOption roles{"roles", "the entry points whose code runs as each role (the map replaces the default)",
                     {{"", defaultRoles()}}, readRoles, nullptr, {"timing", "roles"}};
    RuleOption fields{"shared-fields",
                      "the reader-set table: a row with the struct and field of a default row replaces it, any other "
                      "row is added",
                      {{"", defaultRows()}}, readRows, mergeRows, {"timing", "shared-fields"}};
    RuleOption perRound = namesOption("per-round-objects", {"DevStartArgs", "DevStartArgsBase"},
                                      "writes through these types are this round's own: never reported");
    perRound.alias = {"timing", "per-round-objects"};
    return {roles, fields, perRound};
  }

  bool applies(const Kernel& k, const KernelTraits&, const RuleSettings&) const override {
    return !k.cpp->machine->writes.empty();
  }
  bool affectedBy(ModelGap::Kind) const override { return false; }
  bool readsControlCode() const override { return true; }

  void check(const Kernel& k, RuleContext& ctx) const override {
    if (!k.cpp || !k.cpp->machine) return;
    const auto& roles = ctx.option<RoleEntries>("roles");
    const auto& sharedFields = ctx.option<std::vector<SharedField>>("shared-fields");
    const auto& perRoundObjects = ctx.option<std::vector<std::string>>("per-round-objects");
    // Who writes: the roles whose entry points reach this function, over every input.
    const MachineFacts& m = *k.cpp->machine;
    std::vector<std::string> writers = rolesOf(m.entries, k.name, roles);
    bool roleKnown = !writers.empty();
    // Its files run a role's entry point, and none reaches it: no role runs it (a simulation
    // model's override, code behind a host-only branch).
    if (!roleKnown && !rolesOf(m.fileEntries, "", roles).empty()) return;
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
      for (const auto& view : w.views) perRoundObject |= anyNameMatches(perRoundObjects, view.first);
      if (perRoundObject) continue;
      for (const SharedField& row : sharedFields) {
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
        for (const auto& [role, globs] : roles)
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
