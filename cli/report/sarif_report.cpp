// --format sarif: SARIF 2.1.0 for GitHub code scanning and other viewers. Stable ruleIds with
// the rule pages as help, partialFingerprints from cli/report/fingerprint, witness paths as
// codeFlows, URIs relative to %SRCROOT% (the source root); input errors are tool notifications.
// Suppressed and baselined findings stay, with `suppressions` and `baselineState`, so a known
// defect shows as suppressed or unchanged instead of vanishing. GitHub's limits (25,000
// results, 10 MB compressed) are enforced by cli/report/sarif_limits.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/report/formats.h"
#include "cli/report/json_text.h"
#include "cli/report/sarif_limits.h"
#include "cli/source_root.h"

namespace ptov {

namespace {
using nlohmann::json;

json physical(const SourceLoc& l, const ReportOptions& o) {
  json region = {{"startLine", std::max(1, l.line)}};
  if (l.col > 0) region["startColumn"] = l.col;
  bool inside = false;
  json artifact = {{"uri", artifactUri(l.file, o.sourceRoot, &inside)}};
  if (inside) artifact["uriBaseId"] = "SRCROOT";  // outside the root: an absolute file:// URI alone
  return {{"physicalLocation", {{"artifactLocation", artifact}, {"region", region}}}};
}

const char* sarifLevel(const Finding& f) {
  if (f.unknown) return "warning";
  switch (f.severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "warning";
}

std::string firstParagraph(const std::string& doc, const std::string& heading) {
  auto at = doc.find(heading);
  if (at == std::string::npos) return "";
  at = doc.find('\n', at);
  auto end = doc.find("\n## ", at);
  std::string body = doc.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
  while (!body.empty() && (body.front() == '\n' || body.front() == ' ')) body.erase(body.begin());
  auto para = body.find("\n\n");
  return body.substr(0, para);
}

// sync-deadlock -> SyncDeadlock (SARIF wants a name distinct from the id).
std::string camel(const std::string& id) {
  std::string out;
  bool up = true;
  for (char c : id) {
    if (c == '-') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

json ruleDescriptor(const Rule& r, const ReportOptions& o) {
  const RuleInfo& i = r.info();
  std::string doc = ruleDoc(i.id);
  std::string full = firstParagraph(doc, "## What it checks");
  json d = {{"id", i.id},
            {"name", camel(i.id)},
            {"shortDescription", {{"text", i.summary}}},
            {"fullDescription", {{"text", full.empty() ? i.summary : full}}},
            {"defaultConfiguration", {{"level", i.severity == Severity::Error     ? "error"
                                                : i.severity == Severity::Warning ? "warning"
                                                                                  : "note"}}},
            {"properties", {{"tags", json::array({i.family})}}}};
  if (!doc.empty()) d["help"] = {{"text", "ptoverify explain " + i.id}, {"markdown", doc}};
  if (!o.helpUriBase.empty()) d["helpUri"] = o.helpUriBase + "docs/rules/" + i.id + ".md";
  return d;
}
// One result: the finding, its notes as related locations and its witness as a code flow.
json sarifResult(const Finding& f, std::map<std::string, int>& ruleIndex, const ReportOptions& o) {
  json r = {{"ruleId", f.ruleId},
            {"level", sarifLevel(f)},
            {"message", {{"text", f.message}}},
            {"locations", json::array({physical(f.loc, o)})},
            {"partialFingerprints", {{"ptoverifyFact/v1", f.fingerprint}}},
            {"properties", {{"kernel", f.kernel}, {"verdict", f.unknown ? "unknown" : "violated"}}}};
  if (ruleIndex.count(f.ruleId)) r["ruleIndex"] = ruleIndex[f.ruleId];
  // SARIF fixes need replacement text; a review fix is advice, so it goes to the properties.
  if (!f.grade.empty()) r["properties"]["reviewLevel"] = f.grade;
  if (!f.fix.empty()) r["properties"]["fix"] = f.fix;
  json related = json::array();
  for (size_t i = 0; i < f.notes.size(); ++i) {
    json loc = physical(f.notes[i].loc, o);
    loc["id"] = static_cast<int>(i);
    loc["message"] = {{"text", f.notes[i].message}};
    related.push_back(loc);
  }
  if (!related.empty()) r["relatedLocations"] = related;
  if (f.witness && !f.witness->path.empty()) {
    json steps = json::array();
    for (const auto& step : f.witness->path) {
      json loc = physical(step.loc, o);
      loc["message"] = {{"text", step.what}};
      steps.push_back({{"location", loc}});
    }
    std::string values = valuesText(f.witness->values);
    json flow = {{"threadFlows", json::array({{{"locations", steps}}})}};
    if (!values.empty()) flow["message"] = {{"text", "witness: " + values}};
    r["codeFlows"] = json::array({flow});
    r["properties"]["witnessValues"] = f.witness->values;
    if (!f.witness->state.empty()) r["properties"]["witnessState"] = f.witness->state;
  }
  return r;
}
}  // namespace

void writeSarif(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  json rules = json::array();
  std::map<std::string, int> ruleIndex;
  for (const auto& r : allRules()) {
    ruleIndex[r->info().id] = static_cast<int>(rules.size());
    rules.push_back(ruleDescriptor(*r, o));
  }
  // The notes about inline suppressions (cli/suppressions.h) come from a pseudo-rule.
  ruleIndex["suppression"] = static_cast<int>(rules.size());
  rules.push_back({{"id", "suppression"},
                   {"name", "InlineSuppression"},
                   {"shortDescription", {{"text", "an inline suppression without a reason, or one that suppresses nothing"}}},
                   {"fullDescription", {{"text", "ptoverify: ignore / NOLINT comments need a reason and must still hide "
                                                 "a finding; docs/config.md."}}},
                   {"defaultConfiguration", {{"level", "note"}}}});
  json results = json::array(), notifications = json::array();
  for (const auto& p : result.problems) notifications.push_back({{"level", "error"}, {"message", {{"text", p}}}});
  json hidden = json::array();
  for (const auto& file : result.files) {
    for (const auto& d : file.inputDiagnostics) {
      // Errors, and warnings of what was read only in part (a header not found, an unknown name).
      if (d.level == InputDiagnostic::Level::Note) continue;
      notifications.push_back({{"level", d.level == InputDiagnostic::Level::Error ? "error" : "warning"},
                               {"message", {{"text", d.message}}},
                               {"locations", json::array({physical(d.loc, o)})},
                               {"properties", {{"inputIndex", file.inputIndex}}}});
    }
    // What the front end could not model: the rules it touches reported `unknown` results.
    for (const auto& g : file.notModelled)
      notifications.push_back({{"level", "warning"},
                               {"message", {{"text", std::string("not modelled: ") + gapKindName(g.kind) + " " + g.what}}},
                               {"locations", json::array({physical(g.loc, o)})},
                               {"properties", {{"inputIndex", file.inputIndex}}}});
    // Rules that apply but could not decide (no launch linked, ...): never a silent pass.
    for (size_t k = 0; k < file.notChecked.size() && k < file.kernelNames.size(); ++k)
      for (const auto& [rule, why] : file.notChecked[k])
        notifications.push_back({{"level", "note"},
                                 {"message", {{"text", rule + " not checked for '" + file.kernelNames[k] + "': " + why}}},
                                 {"properties",
                                  {{"ruleId", rule}, {"kernel", file.kernelNames[k]}, {"verdict", "not checked"}, {"inputIndex", file.inputIndex}}},
                                 {"locations", json::array({physical(SourceLoc{file.path, 1, 1}, o)})}});
    for (const auto& f : file.findings) {
      json r = sarifResult(f, ruleIndex, o);
      r["properties"]["inputIndex"] = file.inputIndex;
      if (o.baselineApplied) r["baselineState"] = "new";
      results.push_back(std::move(r));
    }
    for (const auto& h : file.hidden) {
      json r = sarifResult(h.finding, ruleIndex, o);
      r["properties"]["inputIndex"] = file.inputIndex;
      r["suppressions"] = json::array({{{"kind", h.inSource ? "inSource" : "external"},
                                        {"status", "accepted"},
                                        {"justification", h.justification}}});
      if (o.baselineApplied) r["baselineState"] = h.inSource && !h.alsoInBaseline ? "new" : "unchanged";
      hidden.push_back(std::move(r));
    }
  }
  // Baseline entries no longer found in the files checked: SARIF's "absent", as a pass.
  for (const auto& f : result.absentBaselineFindings) {
    json r = sarifResult(f, ruleIndex, o);
    r["kind"] = "pass";
    r["level"] = "none";
    r["baselineState"] = "absent";
    hidden.push_back(std::move(r));
  }
  // The results a cap would drop first go last.
  for (auto& r : hidden) results.push_back(std::move(r));
  json invocation = {{"executionSuccessful", result.exitCode() != kExitInputError},
                     {"exitCode", result.exitCode()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  json run = {{"tool",
               {{"driver",
                 {{"name", "ptoverify"},
                  {"version", o.toolVersion},
                  {"semanticVersion", o.toolVersion},
                  {"rules", rules}}}}},
              {"automationDetails", {{"id", o.sarifCategory + "/"}}},
              {"originalUriBaseIds", {{"SRCROOT", {{"uri", directoryUri(o.sourceRoot)}}}}},
              {"invocations", json::array({invocation})},
              {"results", results},
              {"columnKind", "unicodeCodePoints"}};
  std::string info = !o.helpUriBase.empty() ? o.helpUriBase + "README.md" : o.informationUri;
  if (!info.empty()) run["tool"]["driver"]["informationUri"] = info;
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  capSarifResults(doc);
  out << jsonText(doc, 2) << '\n';
}

}  // namespace ptov
