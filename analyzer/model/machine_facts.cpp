#include "analyzer/model/machine_facts.h"

namespace ptov {

bool compatible(const std::vector<PathLiteral>& a, const std::vector<PathLiteral>& b) {
  for (const auto& x : a)
    for (const auto& y : b)
      if (x.atom == y.atom && x.positive != y.positive) return false;
  return true;
}

bool addLiteral(std::vector<PathLiteral>& when, const PathLiteral& l) {
  for (const auto& x : when)
    if (x.atom == l.atom) return x.positive == l.positive;
  when.push_back(l);
  return true;
}

std::string describePath(const std::vector<PathLiteral>& when) {
  std::string out;
  for (size_t i = 0; i < when.size(); ++i) {
    if (i) out += i + 1 == when.size() ? " and " : ", ";
    const PathLiteral& l = when[i];
    bool written = !l.written.empty();
    bool holds = l.positive != (written && l.writtenNegated);  // the written form's truth
    out += "`" + (written ? l.written : l.atom) + "` is " + (holds ? "true" : "false");
  }
  return out;
}

}  // namespace ptov
