#include "analyzer/task_names.h"

#include <cctype>

namespace ptov {

std::string namedTask(const std::string& t, size_t at) {
  auto blanks = [&](size_t i) { while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i; return i; };
  auto identEnd = [&](size_t i) {
    if (i >= t.size() || !(std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_')) return i;
    while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_')) ++i;
    return i;
  };
  size_t i = blanks(at);
  bool task = t.compare(i, 4, "Task") == 0;
  size_t word = task ? 4 : t.compare(i, 4, "Spmd") == 0 ? 4 : t.compare(i, 5, "Group") == 0 ? 5 : 0;
  if (!word) return "";
  size_t j = blanks(i + word);
  if (j == i + word) return "";  // at least one blank after the keyword
  size_t k = j;
  if (task)
    while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
  else
    k = identEnd(j);
  if (k == j) return "";
  k = blanks(k);
  if (k >= t.size() || t[k] != ':') return "";
  size_t n = blanks(k + 1), e = identEnd(n);
  return e == n ? "" : t.substr(n, e - n);
}


std::vector<std::string> taskNames(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = text.find("//"); at != std::string::npos; at = text.find("//", at + 2))
    if (std::string name = namedTask(text, at + 2); !name.empty()) out.push_back(std::move(name));
  return out;
}

}  // namespace ptov
