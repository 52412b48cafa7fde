#include "cli/merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/check.h"
#include "cli/report/json_text.h"
#include "cli/report/sarif_limits.h"

namespace ptov {
namespace {

using nlohmann::json;

// Where one unsharded run puts an entry: its input's place among all inputs (entries that
// belong to no input, the run's own problems, first).
size_t inputIndexOf(const json& entry) {
  if (!entry.is_object() || !entry.contains("properties") || !entry["properties"].is_object()) return 0;
  const json& i = entry["properties"].value("inputIndex", json());
  return i.is_number_unsigned() ? i.get<size_t>() + 1 : 0;
}

// A run writes the findings first, then the suppressed ones, then the absent baseline entries.
int resultSection(const json& r) {
  if (r.is_object() && r.value("baselineState", "") == "absent") return 2;
  return r.is_object() && r.contains("suppressions") ? 1 : 0;
}

// The exit code one run over every shard's inputs gives: an input error wins, then findings,
// then (--strict) undecided proofs.
int combinedExitCode(int a, int b) {
  for (int code : {kExitInputError, kExitFindings, kExitUnknown})
    if (a == code || b == code) return code;
  return kExitClean;
}

}  // namespace

int mergeSarif(const std::vector<std::string>& inputs, const std::string& output) {
  json merged;
  std::vector<json> results, notifications;
  std::set<std::string> runProblems;  // notifications of no input: every shard repeats them
  for (const auto& path : inputs) {
    // Any shape problem in an input is that input's error (exit 2), never an exception (70).
    try {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error("not a readable regular file");
      std::ifstream in(path);
      if (!in) throw std::runtime_error("cannot read it");
      json doc = parseBoundedJson(in);
      if (!doc.is_object() || doc.value("version", "") != "2.1.0" || !doc["runs"].is_array() || doc["runs"].size() != 1)
        throw std::runtime_error("not a single-run SARIF 2.1.0 log");
      json& run = doc["runs"][0];
      if (!run.is_object() || (run.contains("results") && !run["results"].is_array()) ||
          !run["invocations"].is_array() || run["invocations"].empty() || !run["invocations"][0].is_object())
        throw std::runtime_error("the run has no results array or no invocation");
      json& from = run["invocations"][0];
      if (from.contains("toolExecutionNotifications") && !from["toolExecutionNotifications"].is_array())
        throw std::runtime_error("toolExecutionNotifications is not an array");
      if (run.contains("results"))
        for (auto& r : run["results"]) results.push_back(std::move(r));
      if (from.contains("toolExecutionNotifications"))
        for (auto& n : from["toolExecutionNotifications"])
          if (inputIndexOf(n) > 0 || runProblems.insert(n.dump()).second) notifications.push_back(std::move(n));
      int exitCode = from.value("exitCode", 0);
      bool successful = from.value("executionSuccessful", true);
      from.erase("toolExecutionNotifications");
      if (merged.is_null()) {
        merged = std::move(doc);
        continue;
      }
      json& to = merged["runs"][0]["invocations"][0];
      to["executionSuccessful"] = to.value("executionSuccessful", true) && successful;
      to["exitCode"] = combinedExitCode(to.value("exitCode", 0), exitCode);
    } catch (const std::exception& e) {
      std::cerr << path << ": error: " << e.what() << '\n';
      return kExitInputError;
    }
  }
  // Back in the order of one run: each input is wholly in one shard, so a stable sort by the
  // input's place keeps each input's own order.
  std::stable_sort(results.begin(), results.end(), [](const json& a, const json& b) {
    return std::make_pair(resultSection(a), inputIndexOf(a)) < std::make_pair(resultSection(b), inputIndexOf(b));
  });
  std::stable_sort(notifications.begin(), notifications.end(),
                   [](const json& a, const json& b) { return inputIndexOf(a) < inputIndexOf(b); });
  if (!merged.is_null()) {
    json& run = merged["runs"][0];
    json& invocation = run["invocations"][0];
    if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);
    // The first shard's run keeps its key order; the merged lists replace its own.
    run["results"] = std::move(results);
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
