#include "cli/changed_lines.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <sstream>

#include "cli/source_root.h"

namespace ptov {

bool ChangedLines::contains(const std::string& relativePath, int line) const {
  auto it = ranges.find(relativePath);
  if (it == ranges.end()) return false;
  for (const auto& [first, last] : it->second)
    if (line >= first && line <= last) return true;
  return false;
}

namespace {
// `+c,d` of a hunk header: lines c .. c+d-1 of the new file (d = 0: a deletion, nothing added).
bool addedRange(const std::string& header, int& first, int& count) {
  size_t plus = header.find(" +");
  if (plus == std::string::npos) return false;
  std::istringstream in(header.substr(plus + 2));
  if (!(in >> first)) return false;
  count = 1;
  if (in.peek() == ',') {
    in.get();
    if (!(in >> count)) return false;
  }
  return true;
}
}  // namespace

bool parseUnifiedDiff(std::istream& in, ChangedLines& out, std::string& error) {
  std::string line, file;
  bool sawFile = false;
  while (std::getline(in, line)) {
    if (line.rfind("+++ ", 0) == 0) {
      sawFile = true;
      file = line.substr(4);
      if (size_t tab = file.find('\t'); tab != std::string::npos) file.resize(tab);
      if (file == "/dev/null") file.clear();  // a deleted file has no new lines
      else if (file.rfind("b/", 0) == 0) file = file.substr(2);
      continue;
    }
    if (line.rfind("@@ ", 0) != 0 || file.empty()) continue;
    int first = 0, count = 0;
    if (addedRange(line, first, count) && count > 0) out.ranges[file].emplace_back(first, first + count - 1);
  }
  if (!sawFile) {
    error = "no '+++ ' file header: not a unified diff";
    return false;
  }
  return true;
}

namespace {
// The standard output of a command run in `dir`, or nullopt when it fails.
bool runIn(const std::string& dir, const std::string& command, std::string& output) {
  std::string quoted = "'";
  for (char c : dir) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  FILE* p = popen(("cd " + quoted + " && " + command + " 2>/dev/null").c_str(), "r");
  if (!p) return false;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output.append(buf.data(), n);
  return pclose(p) == 0;
}

bool safeRange(const std::string& range) {
  for (char c : range)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '/' || c == '^' ||
          c == '~' || c == '@'))
      return false;
  return !range.empty() && range[0] != '-';
}
}  // namespace

bool changedLinesFromGit(const std::string& range, const std::string& dir, ChangedLines& out, std::string& error) {
  if (!safeRange(range)) {
    error = "--diff '" + range + "': a revision range is BASE..HEAD of branch names, tags or commits";
    return false;
  }
  std::string top;
  if (!runIn(dir, "git rev-parse --show-toplevel", top) || top.empty()) {
    error = "--diff: '" + dir + "' is not inside a git repository";
    return false;
  }
  while (!top.empty() && (top.back() == '\n' || top.back() == '\r')) top.pop_back();
  std::string diff;
  if (!runIn(top, "git diff -U0 --no-color --no-ext-diff " + range + " --", diff)) {
    error = "--diff: 'git diff " + range + "' failed (are both revisions there?)";
    return false;
  }
  out.root = top;
  std::istringstream in(diff);
  std::string ignored;
  parseUnifiedDiff(in, out, ignored);  // an empty diff changes no line
  return true;
}

size_t keepChangedLines(CheckResult& result, const ChangedLines& lines) {
  size_t left = 0;
  for (auto& file : result.files) {
    std::vector<Finding> kept;
    for (auto& f : file.findings) {
      bool inside = false;
      std::string rel = pathUnderRoot(f.loc.file, lines.root, &inside);
      if (inside && lines.contains(rel, f.loc.line)) kept.push_back(std::move(f));
      else ++left;
    }
    file.findings = std::move(kept);
  }
  return left;
}

}  // namespace ptov
