#include "cli/witness_dot.h"

#include <fstream>
#include <map>
#include <vector>

namespace ptov {

namespace {
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

void printWitnessDot(const CheckResult& result, std::ostream& out) {
  out << "digraph ptoverify_witnesses {\n  rankdir=LR;\n  node [shape=box, fontname=monospace, fontsize=10];\n";
  int cluster = 0;
  for (const auto& file : result.files) {
    for (const auto& f : file.findings) {
      if (!f.witness || f.witness->lanes.empty()) continue;
      const auto& lanes = f.witness->lanes;
      std::string prefix = "w" + std::to_string(cluster) + "_";
      out << "  subgraph cluster_" << cluster << " {\n    label=" << quoted(f.ruleId + " at " + f.loc.file + ":" +
                                                                             std::to_string(f.loc.line) + ": " + f.message)
          << ";\n";
      // One lane per pipe: a chain of its events in issue order, in a row of its own.
      std::map<std::string, std::vector<size_t>> byLane;
      for (size_t i = 0; i < lanes.size(); ++i) byLane[lanes[i].lane].push_back(i);
      int laneNo = 0;
      for (const auto& [lane, events] : byLane) {
        std::string head = prefix + "lane" + std::to_string(laneNo++);
        out << "    subgraph " << quoted("cluster_" + head) << " {\n      label=" << quoted(lane)
            << "; style=dashed;\n      " << head << " [label=" << quoted(lane) << ", shape=plaintext];\n";
        std::string prev = head;
        for (size_t i : events) {
          std::string id = prefix + std::to_string(i);
          out << "      " << id << " [label=" << quoted(lanes[i].label)
              << (lanes[i].stuck ? ", color=red, fontcolor=red, penwidth=2" : "") << "];\n";
          out << "      " << prev << " -> " << id << " [style=dotted, arrowhead=none];\n";
          prev = id;
        }
        out << "    }\n";
      }
      for (size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].matchedWith >= 0)
          out << "    " << prefix << lanes[i].matchedWith << " -> " << prefix << i << " [color=blue, label=\"set->wait\"];\n";
      out << "  }\n";
      ++cluster;
    }
  }
  out << "}\n";
}

bool writeWitnessDot(const CheckResult& result, const std::string& path) {
  std::ofstream out(path);
  if (!out) return false;
  printWitnessDot(result, out);
  return static_cast<bool>(out);
}

}  // namespace ptov
