#include "rules/timing_queries.h"

#include "rules/timing_config.h"

namespace ptov {

bool functionMatches(const std::vector<std::string>& globs, const std::string& qualifiedName) {
  size_t colon = qualifiedName.rfind("::");
  std::string plain = colon == std::string::npos ? qualifiedName : qualifiedName.substr(colon + 2);
  return anyNameMatches(globs, qualifiedName) || anyNameMatches(globs, plain);
}

bool callMatches(const std::vector<std::string>& globs, const ControlNode& call) {
  return call.kind == ControlNode::Kind::Call &&
         (anyNameMatches(globs, call.name) || anyNameMatches(globs, call.macro));
}

std::string joinWithAnd(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

std::string firstName(const std::vector<std::string>& names, const std::string& fallback) {
  for (const auto& n : names)
    if (n.find('*') == std::string::npos) return n;
  return fallback;
}

}  // namespace ptov
