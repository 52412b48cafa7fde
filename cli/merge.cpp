#include "cli/merge.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/check.h"
#include "cli/report/json_text.h"
#include "cli/report/sarif_limits.h"

namespace ptov {

int mergeSarif(const std::vector<std::string>& inputs, const std::string& output) {
  using nlohmann::json;
  json merged;
  for (const auto& path : inputs) {
    // Any shape problem in an input is that input's error (exit 2), never an exception (70).
    try {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error("not a readable regular file");
      std::ifstream in(path);
      if (!in) throw std::runtime_error("cannot read it");
      json doc = json::parse(in);
      if (!doc.is_object() || doc.value("version", "") != "2.1.0" || !doc["runs"].is_array() || doc["runs"].size() != 1)
        throw std::runtime_error("not a single-run SARIF 2.1.0 log");
      json& run = doc["runs"][0];
      if (!run.is_object() || (run.contains("results") && !run["results"].is_array()) ||
          !run["invocations"].is_array() || run["invocations"].empty() || !run["invocations"][0].is_object())
        throw std::runtime_error("the run has no results array or no invocation");
      if (merged.is_null()) {
        merged = doc;
        continue;
      }
      json& into = merged["runs"][0];
      for (auto& r : run["results"]) into["results"].push_back(r);
      auto& from = run["invocations"][0];
      auto& to = into["invocations"][0];
      if (from.contains("toolExecutionNotifications") && from["toolExecutionNotifications"].is_array())
        for (auto& n : from["toolExecutionNotifications"]) to["toolExecutionNotifications"].push_back(n);
      to["executionSuccessful"] = to.value("executionSuccessful", true) && from.value("executionSuccessful", true);
      to["exitCode"] = std::max(to.value("exitCode", 0), from.value("exitCode", 0));
    } catch (const std::exception& e) {
      std::cerr << path << ": error: " << e.what() << '\n';
      return kExitInputError;
    }
  }
  capSarifResults(merged);  // shards within the caps can add up past them
  std::ofstream out(output);
  if (!out) {
    std::cerr << "ptoverify: error: cannot write '" << output << "'\n";
    return kExitInputError;
  }
  out << jsonText(merged, 2) << '\n';
  return 0;
}

}  // namespace ptov
