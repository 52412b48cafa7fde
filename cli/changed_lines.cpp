#include "cli/changed_lines.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <istream>
#include <sstream>

namespace ptov {

namespace {
bool inRanges(const std::map<std::string, std::vector<std::pair<int, int>>>& m, const std::string& path, int line) {
  auto it = m.find(path);
  if (it == m.end()) return false;
  for (const auto& [first, last] : it->second)
    if (line >= first && line <= last) return true;
  return false;
}
}  // namespace

bool ChangedLines::contains(const std::string& relativePath, int line) const {
  return inRanges(ranges, relativePath, line);
}

bool ChangedLines::inHunk(const std::string& relativePath, int line) const {
  return inRanges(hunkSpans, relativePath, line);
}

bool ChangedLines::changesFile(const std::string& relativePath) const {
  return std::any_of(files.begin(), files.end(), [&](const FileChange& f) { return f.newPath == relativePath; });
}

bool ChangedLines::touches(const std::string& relativePath, int first, int last) const {
  if (auto it = ranges.find(relativePath); it != ranges.end())
    for (const auto& [a, b] : it->second)
      if (a <= last && b >= first) return true;
  if (auto it = deletions.find(relativePath); it != deletions.end())
    for (int after : it->second)
      if (after >= first - 1 && after <= last) return true;
  return false;
}

namespace {
// `-a,b +c,d` of a hunk header (a missing count is 1).
bool hunkHeader(const std::string& header, DiffHunk& h) {
  auto number = [](std::istringstream& in, int& start, int& count) {
    if (!(in >> start)) return false;
    count = 1;
    if (in.peek() == ',') {
      in.get();
      if (!(in >> count)) return false;
    }
    return true;
  };
  size_t minus = header.find(" -"), plus = header.find(" +");
  if (minus == std::string::npos || plus == std::string::npos) return false;
  std::istringstream oldPart(header.substr(minus + 2)), newPart(header.substr(plus + 2));
  return number(oldPart, h.oldStart, h.oldCount) && number(newPart, h.newStart, h.newCount);
}

// "a/x.pto\t2024-..." -> "x.pto"; "/dev/null" -> "".
std::string headerPath(std::string p, const char* gitPrefix) {
  if (size_t tab = p.find('\t'); tab != std::string::npos) p.resize(tab);
  if (p == "/dev/null") return "";
  if (p.rfind(gitPrefix, 0) == 0) p = p.substr(2);
  return p;
}

// The first new-file line a hunk holds; a hunk that adds nothing sits after line newStart.
int firstNewLine(const DiffHunk& h) {
  return h.newCount == 0 ? h.newStart + 1 : h.newStart;
}

// Added lines, deletion points and the hunk's span, from its body (or from its header when the
// text carries no body).
void recordHunk(const std::string& path, const DiffHunk& h, ChangedLines& out) {
  int next = firstNewLine(h);
  out.hunkSpans[path].emplace_back(h.newStart, h.newCount == 0 ? h.newStart + 1 : h.newStart + h.newCount - 1);
  if (h.lines.empty()) {
    if (h.newCount > 0) out.ranges[path].emplace_back(h.newStart, h.newStart + h.newCount - 1);
    if (h.oldCount > 0) out.deletions[path].push_back(next - 1);
    return;
  }
  for (const auto& l : h.lines) {
    if (l[0] == '+')
      out.ranges[path].emplace_back(next, next);
    else if (l[0] == '-')
      out.deletions[path].push_back(next - 1);
    if (l[0] != '-') ++next;
  }
}
}  // namespace

bool parseUnifiedDiff(std::istream& in, ChangedLines& out, std::string& error) {
  std::string line;
  bool sawFile = false;
  FileChange* file = nullptr;
  int oldLeft = 0, newLeft = 0;  // body lines the current hunk still holds
  std::string pendingOld;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (oldLeft > 0 || newLeft > 0) {
      char k = line.empty() ? ' ' : line[0];  // some tools drop the space of an empty context line
      if (k == '\\') continue;                // "\ No newline at end of file"
      if (k != ' ' && k != '-' && k != '+') {
        oldLeft = newLeft = 0;  // a truncated hunk: read the rest as headers
      } else {
        file->hunks.back().lines.push_back(line.empty() ? " " : line);
        if (k != '+') --oldLeft;
        if (k != '-') --newLeft;
        continue;
      }
    }
    if (line.rfind("--- ", 0) == 0) {
      pendingOld = headerPath(line.substr(4), "a/");
      continue;
    }
    if (line.rfind("+++ ", 0) == 0) {
      sawFile = true;
      out.files.push_back({pendingOld, headerPath(line.substr(4), "b/"), {}, false});
      file = &out.files.back();
      continue;
    }
    if (line.rfind("Binary files ", 0) == 0 && line.find(" differ") != std::string::npos) {
      sawFile = true;  // git's note for a binary file: the paths are in the `diff --git` line
      out.files.push_back({"", "", {}, true});
      file = nullptr;
      continue;
    }
    if (line.rfind("@@ ", 0) != 0 || !file) continue;
    DiffHunk h;
    if (!hunkHeader(line, h)) continue;
    file->hunks.push_back(h);
    oldLeft = h.oldCount;
    newLeft = h.newCount;
  }
  for (const auto& f : out.files)
    if (!f.newPath.empty())
      for (const auto& h : f.hunks) recordHunk(f.newPath, h, out);
  if (!sawFile) {
    error = "no '+++ ' file header: not a unified diff";
    return false;
  }
  return true;
}

bool oldVersion(const FileChange& change, const std::string& newText, std::string& oldText, std::string& error) {
  std::vector<std::string> lines;
  std::istringstream in(newText);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  oldText.clear();
  size_t at = 0;  // next new-file line to copy (0-based)
  for (const auto& h : change.hunks) {
    size_t start = static_cast<size_t>(firstNewLine(h) - 1);
    if (start < at || start > lines.size()) {
      error = "hunk @@ +" + std::to_string(h.newStart) + " @@ does not fit the file";
      return false;
    }
    for (; at < start; ++at) oldText += lines[at] + "\n";
    if (h.lines.empty() && (h.oldCount > 0 || h.newCount > 0)) {
      error = "hunk @@ +" + std::to_string(h.newStart) + " @@ has no lines: the old text cannot be rebuilt";
      return false;
    }
    for (const auto& l : h.lines) {
      if (l[0] != '-') {
        if (at >= lines.size() || lines[at] != l.substr(1)) {
          error = "line " + std::to_string(at + 1) + " is not the one the diff's new version has";
          return false;
        }
        ++at;
      }
      if (l[0] != '+') oldText += l.substr(1) + "\n";
    }
  }
  for (; at < lines.size(); ++at) oldText += lines[at] + "\n";
  return true;
}

namespace {
// The standard output of a command run in `dir`; false when it fails.
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
  // No renames: a renamed file is a deletion and an addition, so its findings count as new.
  if (!runIn(top, "git diff -U0 --no-color --no-ext-diff --no-renames --src-prefix=a/ --dst-prefix=b/ " + range + " --",
             diff)) {
    error = "--diff: 'git diff " + range + "' failed (are both revisions there?)";
    return false;
  }
  out.root = top;
  std::istringstream in(diff);
  std::string ignored;
  parseUnifiedDiff(in, out, ignored);  // an empty diff changes no line
  return true;
}

}  // namespace ptov
