#include "cli/audit.h"
#include "cli/report/json_text.h"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>


namespace ptov {

namespace {
struct Row {
  std::string file, kernel;
  std::vector<std::string> verdicts;  // per audited rule
  std::map<std::string, std::string> reasons;  // rule -> why it is not checked
  size_t launches = 0;                         // linked launches the launch rules checked
  FileResult::KernelSync sync;                 // C++ device code: the kernel's sync calls
};

std::string pad(std::string s, size_t n) {
  s.resize(std::max(n, s.size()), ' ');
  return s;
}
}  // namespace

int runAudit(const CheckRequest& request, const std::string& format, std::ostream& out) {
  CheckRequest req = request;
  req.recordApplicability = true;
  std::vector<std::string> rules;
  for (const auto& r : allRules())
    if (ruleEnabled(r->info().id, req.ruleGlobs)) rules.push_back(r->info().id);
  CheckResult result = runCheck(req);
  std::vector<Row> rows;
  std::map<std::string, std::map<std::string, size_t>> counts;  // rule -> verdict -> n
  for (const auto& file : result.files) {
    for (size_t i = 0; i < file.kernelNames.size(); ++i) {
      const std::string& kernel = file.kernelNames[i];
      Row row{file.path, kernel, {}, {}, file.linkedLaunches[i],
              i < file.kernelSync.size() ? file.kernelSync[i] : FileResult::KernelSync{}};
      for (const auto& rule : rules) {
        bool violated = false, unknown = false;
        for (const auto& f : file.findings)
          if (f.kernel == kernel && f.ruleId == rule) (f.unknown ? unknown : violated) = true;
        auto why = file.notChecked[i].find(rule);
        std::string v = violated                              ? "Violated"
                        : unknown                             ? "Unknown"
                        : why != file.notChecked[i].end()     ? "Not checked"
                        : file.applicableRules[i].count(rule) ? "Proved"
                                                              : "N/A";
        if (v == "Not checked") row.reasons[rule] = why->second;
        row.verdicts.push_back(v);
        ++counts[rule][v];
      }
      rows.push_back(std::move(row));
    }
  }
  const char* kinds[] = {"Proved", "Violated", "Unknown", "Not checked", "N/A"};
  if (format == "json") {
    nlohmann::json j = {{"rules", rules}, {"kernels", nlohmann::json::array()}, {"counts", nlohmann::json::object()}};
    for (const auto& r : rows) {
      nlohmann::json v = nlohmann::json::object();
      for (size_t i = 0; i < rules.size(); ++i) v[rules[i]] = r.verdicts[i];
      nlohmann::json k = {{"file", r.file}, {"kernel", r.kernel}, {"verdicts", v}, {"launchesLinked", r.launches}};
      if (!r.reasons.empty()) k["notChecked"] = r.reasons;
      if (r.sync.written > 0) {
        k["view"] = r.sync.view;
        k["syncCalls"] = {{"written", r.sync.written}, {"modelled", r.sync.modelled}};
      }
      j["kernels"].push_back(k);
    }
    for (const auto& rule : rules)
      for (const char* k : kinds) j["counts"][rule][k] = counts[rule][k];
    out << jsonText(j, 2) << '\n';
  } else if (format == "markdown") {
    out << "| file | kernel |";
    for (const auto& r : rules) out << " `" << r << "` |";
    out << "\n| --- | --- |";
    for (size_t i = 0; i < rules.size(); ++i) out << " --- |";
    out << '\n';
    for (const auto& r : rows) {
      out << "| `" << r.file << "` | `" << r.kernel << "` |";
      for (const auto& v : r.verdicts) out << " " << v << " |";
      out << '\n';
    }
    for (const char* k : kinds) {
      out << "| **" << k << "** | |";
      for (const auto& rule : rules) out << " " << counts[rule][k] << " |";
      out << '\n';
    }
  } else {
    size_t w = 6;
    for (const auto& r : rows) w = std::max(w, r.file.size() + r.kernel.size() + 3);
    out << pad("kernel", w);
    for (const auto& r : rules) out << "  " << pad(r, 10);
    out << '\n';
    for (const auto& r : rows) {
      out << pad(r.file + " @" + r.kernel, w);
      for (size_t i = 0; i < rules.size(); ++i) out << "  " << pad(r.verdicts[i], std::max<size_t>(10, rules[i].size()));
      out << '\n';
    }
    for (const char* k : kinds) {
      out << pad(std::string("total ") + k, w);
      for (const auto& rule : rules) out << "  " << pad(std::to_string(counts[rule][k]), std::max<size_t>(10, rule.size()));
      out << '\n';
    }
  }
  if (format != "json")
    for (const auto& r : rows)
      if (r.sync.written > 0)
        out << (format == "markdown" ? "\n- " : "") << r.file << " @" << r.kernel
            << (r.sync.view.empty() ? "" : " (" + r.sync.view + " view)") << ": " << r.sync.modelled << " of "
            << r.sync.written
            << " set_flag / wait_flag / pipe_barrier call(s) in the functions it runs are in its model\n";
  if (format != "json")
    for (const auto& r : rows)
      for (const auto& [rule, why] : r.reasons)
        out << (format == "markdown" ? "\n- " : "") << r.file << " @" << r.kernel << ": " << rule << ": not checked: " << why
            << '\n';
  for (const auto& p : result.problems) out << p << '\n';
  return result.exitCode();
}

}  // namespace ptov
