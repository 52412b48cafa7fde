#include "cli/link_groups.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "analyzer/frontend.h"
#include "analyzer/task_names.h"

namespace ptov {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return "";
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifiers of C++ text (kernel and callee names are among them).
std::set<std::string> identifiers(const std::string& t) {
  std::set<std::string> out;
  for (size_t i = 0; i < t.size();) {
    if (!isIdentStart(t[i]) || (i > 0 && isIdentChar(t[i - 1]))) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < t.size() && isIdentChar(t[e])) ++e;
    out.insert(t.substr(i, e - i));
    i = e;
  }
  return out;
}

// `#include` names of `text`, and of the headers they name that exist beside it (the scan
// the C++ front end makes for its empty stand-ins; eight levels deep).
void includeNames(const std::string& text, const fs::path& dir, std::set<std::string>& names, std::set<std::string>& seen,
                  int depth) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
    i = line.find_first_not_of(" \t", i + 7);
    if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) continue;
    size_t end = line.find_first_of("\">", i + 1);
    if (end == std::string::npos) continue;
    std::string name = line.substr(i + 1, end - i - 1);
    names.insert(name);
    fs::path local = dir / name;
    std::error_code ec;
    if (depth < 8 && fs::is_regular_file(local, ec) && seen.insert(fs::weakly_canonical(local, ec).string()).second)
      includeNames(readText(local), local.parent_path(), names, seen, depth + 1);
  }
}

struct Groups {
  std::vector<size_t> parent;
  explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  size_t find(size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(size_t a, size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the earlier input leads
  }
};

}  // namespace

std::vector<std::string> linkGroupLeaders(const std::vector<std::string>& inputs) {
  Groups groups(inputs.size());
  std::map<std::string, std::vector<size_t>> byName;   // identifier / launch key -> C++ inputs
  std::map<std::string, size_t> byPath;                 // normalised path -> input
  std::vector<std::string> normal(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    normal[i] = normalisedPath(inputs[i]);
    byPath.emplace(normal[i], i);
  }
  std::vector<std::pair<size_t, std::string>> wanted;  // (input, a name it links by)
  for (size_t i = 0; i < inputs.size(); ++i) {
    // A .pto or .mlir kernel links to the C++ kernel of its name in any shard: every shard
    // loads all of them (cli/check.cpp), so they need no group.
    if (!isCppInput(inputs[i])) continue;
    std::string text = readText(inputs[i]);
    // A launch names a kernel, its file's stem or one of the three directories above it.
    fs::path p(normal[i]);
    for (const auto& id : identifiers(text)) byName[id].push_back(i);
    byName[p.stem().string()].push_back(i);
    fs::path dir = p.parent_path();
    for (int up = 0; up < 3 && !dir.empty() && dir != dir.root_path(); ++up, dir = dir.parent_path())
      byName[dir.filename().string()].push_back(i);
    for (const auto& task : taskNames(text)) wanted.emplace_back(i, task);
    // A header another input includes is modelled with its includer.
    std::set<std::string> names, seen;
    includeNames(text, p.parent_path(), names, seen, 0);
    // An include resolves below the includer's directory or one above it (where the -I roots
    // of a source tree are); an input at such a place joins the group.
    for (const auto& n : names)
      for (fs::path dir = p.parent_path();; dir = dir.parent_path()) {
        auto other = byPath.find((dir / n).lexically_normal().string());
        if (other != byPath.end()) groups.join(i, other->second);
        if (dir == dir.root_path() || dir.empty()) break;
      }
  }
  for (const auto& [i, name] : wanted) {
    auto it = byName.find(name);
    if (it != byName.end())
      for (size_t j : it->second) groups.join(i, j);
  }
  std::vector<std::string> leaders(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) leaders[i] = inputs[groups.find(i)];
  return leaders;
}

}  // namespace ptov
