#include "analyzer/model/machine_facts.h"

namespace ptov {

bool compatible(const std::vector<PathLiteral>& a, const std::vector<PathLiteral>& b) {
  for (const auto& x : a)
    for (const auto& y : b)
      if (x.atom == y.atom && x.positive != y.positive) return false;
  return true;
}

std::string describePath(const std::vector<PathLiteral>& when) {
  std::string out;
  for (size_t i = 0; i < when.size(); ++i) {
    if (i) out += i + 1 == when.size() ? " and " : ", ";
    out += "`" + when[i].atom + "` is " + (when[i].positive ? "true" : "false");
  }
  return out;
}

}  // namespace ptov
