// --format json: the whole result as one JSON document (schema in docs/formats.md).
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/report/formats.h"
#include "cli/report/json_text.h"

namespace ptov {

namespace {
nlohmann::json locJson(const SourceLoc& l) { return {{"file", l.file}, {"line", l.line}, {"col", l.col}}; }

const char* inputLevel(InputDiagnostic::Level l) {
  return l == InputDiagnostic::Level::Error ? "error" : l == InputDiagnostic::Level::Warning ? "warning" : "note";
}
}  // namespace

void writeJson(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  using nlohmann::json;
  json doc;
  doc["schemaVersion"] = 1;
  doc["tool"] = {{"name", "ptoverify"}, {"version", o.toolVersion}};
  json files = json::array(), findings = json::array(), inputs = json::array();
  size_t counts[4] = {0, 0, 0, 0};  // note, warning, error, unknown
  for (const auto& p : result.problems) inputs.push_back({{"level", "error"}, {"message", p}});
  for (const auto& f : result.files) {
    json gaps = json::array();  // what the front end could not model (rules it touches said unknown)
    for (const auto& g : f.notModelled)
      gaps.push_back({{"kind", gapKindName(g.kind)}, {"location", locJson(g.loc)}, {"what", g.what}});
    json notChecked = json::array();  // rules that apply but lacked facts (no launch linked, ...)
    for (size_t k = 0; k < f.notChecked.size() && k < f.kernelNames.size(); ++k)
      for (const auto& [rule, why] : f.notChecked[k])
        notChecked.push_back({{"kernel", f.kernelNames[k]}, {"ruleId", rule}, {"why", why}});
    files.push_back({{"path", f.path}, {"kernels", f.kernelNames.size()}, {"findings", f.findings.size()},
                     {"notModelled", gaps}, {"notChecked", notChecked}});
    if (f.sync.written) {  // C++ device code: the sync calls written and how many reached a model
      files.back()["syncCalls"] = {{"written", f.sync.written}, {"modelled", f.sync.modelled}};
      json perKernel = json::array();
      for (size_t k = 0; k < f.kernelSync.size() && k < f.kernelNames.size(); ++k)
        perKernel.push_back({{"kernel", f.kernelNames[k]}, {"view", f.kernelSync[k].view},
                             {"written", f.kernelSync[k].written}, {"modelled", f.kernelSync[k].modelled}});
      files.back()["kernelSyncCalls"] = perKernel;
    }
    for (const auto& d : f.inputDiagnostics)
      inputs.push_back({{"level", inputLevel(d.level)}, {"location", locJson(d.loc)}, {"message", d.message}});
    for (const auto& x : f.findings) {
      json j = {{"ruleId", x.ruleId},         {"level", findingLevel(x)}, {"severity", severityName(x.severity)},
                {"location", locJson(x.loc)}, {"kernel", x.kernel},       {"message", x.message},
                {"fingerprint", x.fingerprint}};
      if (!x.grade.empty()) j["grade"] = x.grade;
      if (!x.fix.empty()) j["fix"] = x.fix;
      json notes = json::array();
      for (const auto& n : x.notes) notes.push_back({{"location", locJson(n.loc)}, {"message", n.message}});
      j["notes"] = notes;
      if (x.witness) {
        json values = json::object(), path = json::array();
        for (const auto& [name, value] : x.witness->values) values[name] = value;
        for (const auto& step : x.witness->path) path.push_back({{"location", locJson(step.loc)}, {"what", step.what}});
        j["witness"] = {{"values", values}, {"path", path}, {"omittedSteps", x.witness->omittedSteps},
                        {"state", x.witness->state}};
      }
      findings.push_back(j);
      ++counts[x.unknown ? 3 : static_cast<int>(x.severity)];
    }
  }
  doc["files"] = files;
  doc["inputDiagnostics"] = inputs;
  doc["findings"] = findings;
  doc["summary"] = {{"files", result.files.size()}, {"errors", counts[2]}, {"warnings", counts[1]},
                    {"notes", counts[0]},           {"unknown", counts[3]}, {"exitCode", result.exitCode()}};
  out << jsonText(doc, 2) << '\n';
}

void printRulesJson(std::ostream& out) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : allRules()) {
    const RuleInfo& i = r->info();
    rules.push_back({{"id", i.id},
                     {"family", i.family},
                     {"severity", severityName(i.severity)},
                     {"summary", i.summary},
                     {"references", i.references},
                     {"doc", "docs/rules/" + i.id + ".md"}});
  }
  out << jsonText(nlohmann::json{{"rules", rules}}, 2) << '\n';
}

}  // namespace ptov
