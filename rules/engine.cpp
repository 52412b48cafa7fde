#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "rules/rule.h"

namespace ptov {

const std::map<std::string, std::string>& ruleDocs();  // generated from docs/rules/*.md

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

bool parseSeverity(const std::string& s, Severity& out) {
  if (s == "note") out = Severity::Note;
  else if (s == "warning") out = Severity::Warning;
  else if (s == "error") out = Severity::Error;
  else return false;
  return true;
}

Finding& RuleContext::report(const SourceLoc& loc, const std::string& message) {
  return report(rule_.info().severity, loc, message);
}

Finding& RuleContext::report(Severity sev, const SourceLoc& loc, const std::string& message) {
  Finding f;
  f.ruleId = rule_.info().id;
  f.severity = sev;
  f.loc = loc;
  f.message = message;
  sink_.push_back(std::move(f));
  return sink_.back();
}

const char* gradeName(ReviewGrade g) {
  switch (g) {
    case ReviewGrade::Blocker: return "Blocker";
    case ReviewGrade::Major: return "Major";
    case ReviewGrade::Minor: return "Minor";
  }
  return "Blocker";
}

Finding& RuleContext::report(ReviewGrade grade, const SourceLoc& loc, const std::string& message,
                             const std::string& fix) {
  Severity sev = grade == ReviewGrade::Blocker ? Severity::Error
                 : grade == ReviewGrade::Major ? Severity::Warning
                                               : Severity::Note;
  Finding& f = report(sev, loc, message);
  f.grade = gradeName(grade);
  f.fix = fix;
  return f;
}

const char* findingLevel(const Finding& f) { return f.unknown ? "unknown" : severityName(f.severity); }

Finding* RuleContext::reportVerdict(const Verdict& v, const SourceLoc& loc, const std::string& message) {
  if (v.kind == Verdict::Kind::Proved) return nullptr;
  if (v.kind == Verdict::Kind::Unknown) {
    Finding& f = report(Severity::Warning, loc, "could not prove: " + message + " (" + v.reason + ")");
    f.unknown = true;
    return &f;
  }
  Finding& f = report(loc, message);
  f.witness = std::make_shared<Witness>(v.witness);
  return &f;
}

std::string ruleDoc(const std::string& id) {
  auto it = ruleDocs().find(id);
  return it == ruleDocs().end() ? std::string() : it->second;
}

bool globMatches(const std::string& glob, const std::string& name) {
  // Iterative: on a mismatch, back up to the last star only (time |glob| x |name|, whatever the
  // number of stars; the recursive form was exponential in consecutive ones).
  size_t g = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      mark = n;
    } else if (g < glob.size() && glob[g] == name[n]) {
      ++g;
      ++n;
    } else if (star != std::string::npos) {
      g = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}


bool anyRuleEnabled(const std::vector<std::string>& globs) {
  for (const auto& r : allRules())
    if (ruleEnabled(r->info().id, globs)) return true;
  return false;
}

bool ruleEnabled(const std::string& id, const std::vector<std::string>& globs) {
  if (globs.empty()) return true;
  bool enabled = false;
  bool anyPositive = false;
  for (const auto& g : globs) {
    if (!g.empty() && g[0] == '-') {
      if (globMatches(g.substr(1), id)) enabled = false;
    } else {
      anyPositive = true;
      if (globMatches(g, id)) enabled = true;
    }
  }
  if (!anyPositive) {
    // Only removals: start from every rule.
    enabled = true;
    for (const auto& g : globs)
      if (globMatches(g.substr(1), id)) enabled = false;
  }
  return enabled;
}

RuleContext::RuleContext(const Rule& rule, const Kernel& kernel, std::vector<Finding>& sink, ProofContext& proofs,
                         const RuleSettings* settings)
    : rule_(rule), kernel_(kernel), sink_(sink), proofs_(proofs), settings_(settings) {}

namespace {
// Every rule's option defaults as their readers make them: rule id -> option -> arch -> value.
using OptionDefaults = std::map<std::string, std::map<std::string, std::map<std::string, std::any>>>;

const OptionDefaults& optionDefaults() {
  static const OptionDefaults table = [] {
    OptionDefaults t;
    for (const auto& r : allRules())
      for (const RuleOption& o : r->options())
        for (const auto& [arch, value] : o.defaults)
          t[r->info().id][o.name][arch] = o.read(value, r->info().id + "." + o.name);
    return t;
  }();
  return table;
}
}  // namespace

const std::any& optionValue(const Rule& rule, const std::string& name, const std::string& arch,
                            const RuleSettings* settings) {
  const std::string& id = rule.info().id;
  if (settings)
    if (auto r = settings->options.find(id); r != settings->options.end())
      if (auto it = r->second.find(name); it != r->second.end()) return it->second.value;
  if (auto r = optionDefaults().find(id); r != optionDefaults().end())
    if (auto o = r->second.find(name); o != r->second.end()) {
      auto it = o->second.find(arch);
      if (it == o->second.end()) it = o->second.find("");
      if (it != o->second.end()) return it->second;
    }
  throw std::logic_error("rule " + id + " reads option '" + name + "' it does not declare");
}

namespace {
// Code the front end skipped may hold exactly what a finding says is missing (the set a wait
// waits for): the rule's findings on such a kernel are `unknown`, not errors.
void demoteOverSkippedCode(const Kernel& k, const Rule& rule, std::vector<Finding>& findings, size_t firstOfRule) {
  const ModelGap* skipped = nullptr;
  for (const auto& g : k.gaps)
    if (g.kind == ModelGap::Kind::SkippedCode && rule.affectedBy(g.kind)) skipped = skipped ? skipped : &g;
  if (!skipped) return;
  for (size_t i = firstOfRule; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (f.unknown) continue;
    f.unknown = true;
    f.severity = Severity::Warning;
    f.message = "could not prove: " + f.message + " (" + skipped->what + " at line " + std::to_string(skipped->loc.line) +
                " was not modelled)";
    f.witness.reset();
  }
}

// A rule that found nothing on a kernel with gaps in its facts has not shown it correct: one
// `unknown` finding says why.
void reportGaps(const Kernel& k, const KernelTraits& traits, const Rule& rule, const RuleSettings* settings,
                std::vector<Finding>& findings, size_t firstOfRule) {
  for (size_t i = firstOfRule; i < findings.size(); ++i)
    if (!findings[i].unknown && findings[i].severity == Severity::Error) return;
  std::vector<const ModelGap*> hits;
  for (const auto& g : k.gaps)
    if (rule.affectedBy(g.kind)) hits.push_back(&g);
  if (hits.empty() || !rule.appliesTo(k, traits, settings)) return;
  Finding f;
  f.ruleId = rule.info().id;
  f.severity = Severity::Warning;
  f.unknown = true;
  f.loc = hits.front()->loc;
  f.message = "not fully checked: " + std::to_string(hits.size()) + " construct(s) in '" + k.name +
              "' were not modelled, first: " + gapKindName(hits.front()->kind) + " " + hits.front()->what;
  for (size_t i = 1; i < hits.size() && i < 4; ++i)
    f.notes.push_back({hits[i]->loc, std::string("also not modelled: ") + gapKindName(hits[i]->kind) + " " + hits[i]->what});
  findings.push_back(std::move(f));
}
}  // namespace

std::vector<Finding> runRules(const Kernel& kernel, const std::vector<std::string>& globs, Solver* solver,
                              const RuleSettings* settings) {
  static Solver defaultSolver;
  Solver& s = solver ? *solver : defaultSolver;
  s.startKernel();
  ProofContext proofs(kernel, s);
  std::vector<Finding> findings;
  // Read only by the gap reports: one op walk per kernel with gaps, not one per rule.
  const KernelTraits traits = kernel.gaps.empty() ? KernelTraits{} : kernelTraits(kernel);
  for (const auto& rule : allRules()) {
    if (!ruleEnabled(rule->info().id, globs)) continue;
    RuleContext ctx(*rule, kernel, findings, proofs, settings);
    size_t first = findings.size();
    rule->check(kernel, ctx);
    if (!kernel.gaps.empty()) {
      demoteOverSkippedCode(kernel, *rule, findings, first);
      reportGaps(kernel, traits, *rule, settings, findings, first);
    }
  }
  for (auto& f : findings) f.kernel = kernel.name;
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.col < b.loc.col;
  });
  // A rule may reach the same op on several paths; report it once.
  findings.erase(std::unique(findings.begin(), findings.end(),
                             [](const Finding& a, const Finding& b) {
                               return a.ruleId == b.ruleId && a.loc.line == b.loc.line &&
                                      a.loc.col == b.loc.col && a.message == b.message;
                             }),
                 findings.end());
  return findings;
}

}  // namespace ptov
