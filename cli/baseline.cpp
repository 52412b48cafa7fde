#include "cli/baseline.h"
#include "cli/report/json_text.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace ptov {

bool writeBaseline(const CheckResult& result, const std::string& path) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& file : result.files)
    for (const auto& f : file.findings)
      if (!f.unknown)
        entries.push_back({{"fingerprint", f.fingerprint}, {"ruleId", f.ruleId}, {"kernel", f.kernel},
                           {"file", f.loc.file}, {"message", f.message}});
  std::ofstream out(path);
  if (!out) return false;
  out << jsonText(nlohmann::json{{"ptoverifyBaseline", 1}, {"findings", entries}}, 2) << '\n';
  return static_cast<bool>(out);
}

bool applyBaseline(const std::string& path, CheckResult& result, std::string& error) {
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
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    error = path + ": error: not JSON: " + e.what();
    return false;
  }
  if (!doc.is_object() || !doc.contains("ptoverifyBaseline") || !doc["findings"].is_array()) {
    error = path + ": error: not a ptoverify baseline (make one with 'ptoverify baseline create')";
    return false;
  }
  std::map<std::string, int> known;
  for (const auto& e : doc["findings"])
    if (e.contains("fingerprint") && e["fingerprint"].is_string()) ++known[e["fingerprint"].get<std::string>()];
  for (auto& file : result.files) {
    std::vector<Finding> kept;
    for (auto& f : file.findings) {
      auto it = known.find(f.fingerprint);
      if (!f.unknown && it != known.end() && it->second > 0) {
        --it->second;
        ++file.baselined;
      } else {
        kept.push_back(std::move(f));
      }
    }
    file.findings = std::move(kept);
  }
  return true;
}

}  // namespace ptov
