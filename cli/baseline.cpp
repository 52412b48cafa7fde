#include "cli/baseline.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/report/json_text.h"
#include "cli/source_root.h"

namespace ptov {

namespace {
using nlohmann::json;

// The fields of an entry, as read; a malformed field reads as empty / 0.
std::string field(const json& e, const char* name) {
  return e.contains(name) && e[name].is_string() ? e[name].get<std::string>() : "";
}
}  // namespace

bool writeBaseline(const CheckResult& result, const std::string& path, const std::string& sourceRoot) {
  json entries = json::array();
  for (const auto& file : result.files)
    for (const auto& f : file.findings)
      if (!f.unknown)
        entries.push_back({{"path", pathUnderRoot(file.path, sourceRoot)}, {"fingerprint", f.fingerprint},
                           {"ruleId", f.ruleId}, {"kernel", f.kernel}, {"line", f.loc.line},
                           {"severity", severityName(f.severity)}, {"message", f.message}});
  std::ofstream out(path);
  if (!out) return false;
  out << jsonText(json{{"ptoverifyBaseline", 2}, {"findings", entries}}, 2) << '\n';
  return static_cast<bool>(out);
}

bool applyBaseline(const std::string& path, CheckResult& result, const std::string& sourceRoot, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {  // absent, or a FIFO that would block
    error = path + ": error: cannot read the baseline (not a regular file)";
    return false;
  }
  std::ifstream in(path);
  if (!in) {
    error = path + ": error: cannot read the baseline";
    return false;
  }
  json doc;
  try {
    doc = parseBoundedJson(in);
  } catch (const std::exception& e) {  // json's own errors, and nesting past the bound
    error = path + ": error: not JSON: " + e.what();
    return false;
  }
  if (!doc.is_object() || !doc.contains("ptoverifyBaseline") || !doc["findings"].is_array()) {
    error = path + ": error: not a ptoverify baseline (make one with 'ptoverify baseline create')";
    return false;
  }
  // (path, fingerprint) -> the entries not yet matched; path "" for version 1 entries.
  std::map<std::pair<std::string, std::string>, std::vector<const json*>> open;
  for (const auto& e : doc["findings"])
    if (e.is_object() && !field(e, "fingerprint").empty()) open[{field(e, "path"), field(e, "fingerprint")}].push_back(&e);
  const std::string why = "in the baseline " + path;
  std::set<std::string> checked;
  for (auto& file : result.files) {
    std::string key = pathUnderRoot(file.path, sourceRoot);
    checked.insert(key);
    std::vector<Finding> kept;
    for (auto& f : file.findings) {
      auto it = open.find({key, f.fingerprint});
      if (it == open.end() || it->second.empty()) it = open.find({"", f.fingerprint});
      if (!f.unknown && it != open.end() && !it->second.empty()) {
        it->second.pop_back();
        file.hidden.push_back({std::move(f), false, why});
      } else {
        kept.push_back(std::move(f));
      }
    }
    file.findings = std::move(kept);
    for (auto& h : file.hidden) {  // suppressed inline and known to the baseline: not absent
      if (!h.inSource) continue;
      auto it = open.find({key, h.finding.fingerprint});
      if (it != open.end() && !it->second.empty()) {
        it->second.pop_back();
        h.alsoInBaseline = true;
      }
    }
  }
  for (const auto& [key, entries] : open) {
    if (key.first.empty() || !checked.count(key.first)) continue;
    for (const json* e : entries) {
      Finding f;
      f.ruleId = field(*e, "ruleId");
      f.kernel = field(*e, "kernel");
      f.message = field(*e, "message");
      f.fingerprint = key.second;
      f.loc.file = key.first[0] == '/' ? key.first : sourceRoot + "/" + key.first;
      f.loc.line = e->contains("line") && (*e)["line"].is_number_integer() ? (*e)["line"].get<int>() : 1;
      parseSeverity(field(*e, "severity"), f.severity);
      result.absentBaselineFindings.push_back(std::move(f));
    }
  }
  return true;
}

}  // namespace ptov
