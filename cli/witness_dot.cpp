#include "cli/witness_dot.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "analyzer/utf8.h"

namespace ptov {

namespace {
// (Not named "quoted": ADL would pick std::quoted for a non-const string, which leaves newlines raw.)
std::string dotString(const std::string& raw) {
  std::string out = "\"";
  for (char c : validUtf8(raw)) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// "sync-deadlock", "k.pto", 14 -> "003-sync-deadlock-k.pto-14.dot" (only safe characters).
std::string fileName(size_t n, const Finding& f) {
  char num[16];
  std::snprintf(num, sizeof num, "%03zu", n);
  std::string base = std::filesystem::path(f.loc.file).filename().string(), safe;
  for (char c : base) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  return std::string(num) + "-" + f.ruleId + "-" + safe + "-" + std::to_string(f.loc.line) + ".dot";
}
}  // namespace

std::string witnessDot(const Finding& f) {
  if (!f.witness || f.witness->lanes.empty()) return "";
  const auto& lanes = f.witness->lanes;
  std::ostringstream out;
  std::string label = f.ruleId + " at " + f.loc.file + ":" + std::to_string(f.loc.line) + "\n" + f.message;
  std::string values = valuesText(f.witness->values);
  if (!values.empty()) label += "\nwitness: " + values;
  out << "digraph ptoverify_witness {\n  rankdir=LR;\n  labelloc=t;\n  label=" << dotString(label)
      << ";\n  node [shape=box, fontname=monospace, fontsize=10];\n";
  // One lane per pipe: a chain of its events in issue order, in a row of its own.
  std::map<std::string, std::vector<size_t>> byLane;
  for (size_t i = 0; i < lanes.size(); ++i) byLane[lanes[i].lane].push_back(i);
  int laneNo = 0;
  for (const auto& [lane, events] : byLane) {
    std::string head = "lane" + std::to_string(laneNo++);
    out << "  subgraph " << dotString("cluster_" + head) << " {\n    label=" << dotString(lane) << "; style=dashed;\n    "
        << head << " [label=" << dotString(lane) << ", shape=plaintext];\n";
    std::string prev = head;
    for (size_t i : events) {
      std::string id = "e" + std::to_string(i);
      out << "    " << id << " [label=" << dotString(lanes[i].label)
          << (lanes[i].stuck    ? ", color=red, fontcolor=red, penwidth=2"
              : lanes[i].racing ? ", color=darkorange, fontcolor=darkorange, penwidth=2"
                                : "")
          << "];\n    " << prev << " -> " << id << " [style=dotted, arrowhead=none];\n";
      prev = id;
    }
    out << "  }\n";
  }
  for (size_t i = 0; i < lanes.size(); ++i)
    if (lanes[i].matchedWith >= 0)
      out << "  e" << lanes[i].matchedWith << " -> e" << i << " [color=blue, label=\"set->wait\"];\n";
  std::vector<size_t> racing;
  for (size_t i = 0; i < lanes.size(); ++i)
    if (lanes[i].racing) racing.push_back(i);
  if (racing.size() == 2)
    out << "  e" << racing[0] << " -> e" << racing[1]
        << " [color=darkorange, style=dashed, dir=both, label=\"unordered\", constraint=false];\n";
  out << "}\n";
  return out.str();
}

bool writeWitnessDots(const CheckResult& result, const std::string& dir, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) {
    error = "ptoverify: error: cannot make the --witness-dot directory '" + dir + "'";
    return false;
  }
  size_t n = 0;
  for (const auto& file : result.files)
    for (const auto& f : file.findings) {
      std::string dot = witnessDot(f);
      if (dot.empty()) continue;
      std::string path = (std::filesystem::path(dir) / fileName(++n, f)).string();
      std::ofstream out(path);
      if (!(out << dot)) {
        error = "ptoverify: error: cannot write '" + path + "'";
        return false;
      }
    }
  return true;
}

}  // namespace ptov
