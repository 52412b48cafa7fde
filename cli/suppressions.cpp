#include "cli/suppressions.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include "cli/comments.h"

namespace ptov {

namespace {
struct Suppression {
  int firstLine = 0, lastLine = 0;  // the lines it covers
  int writtenAt = 0;
  std::vector<std::string> globs;   // empty = every rule (plain NOLINT)
  std::string reason;
  std::string spelling;
  bool used = false;
};

std::vector<std::string> splitRules(const std::string& list) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : list + ",") {
    if (c == ',') {
      size_t b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
      if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// One suppression comment, read by hand: std::regex recurses once per character and a 50 kB
// comment overflowed the stack (issue 18). `marker` (ptoverify: ignore / NOLINT) is found at a
// word start, then an optional suffix, an optional (rule list) and the rest as the reason.
struct Marker {
  bool found = false;
  std::string suffix;  // "-begin", "-end", "NEXTLINE" or ""
  bool hasList = false;
  std::string list, rest;
};

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

Marker readMarker(const std::string& c, bool nolint) {
  Marker m;
  size_t at = 0;
  for (size_t from = 0;; from = at + 1) {
    at = c.find(nolint ? "NOLINT" : "ptoverify:", from);
    if (at == std::string::npos) return m;
    if (at == 0 || !isWordChar(c[at - 1])) break;
  }
  size_t i = at + (nolint ? 6 : 10);
  if (!nolint) {
    while (i < c.size() && std::isspace(static_cast<unsigned char>(c[i]))) ++i;
    if (c.compare(i, 6, "ignore") != 0) return m;
    i += 6;
  }
  for (const char* suffix : nolint ? std::vector<const char*>{"NEXTLINE", "BEGIN", "END"} : std::vector<const char*>{"-begin", "-end"})
    if (c.compare(i, std::strlen(suffix), suffix) == 0) {
      m.suffix = suffix;
      i += std::strlen(suffix);
      break;
    }
  if (nolint && i < c.size() && isWordChar(c[i])) return m;  // NOLINTSOMETHING is another word
  size_t j = i;
  if (!nolint)
    while (j < c.size() && std::isspace(static_cast<unsigned char>(c[j]))) ++j;
  if (j < c.size() && c[j] == '(') {
    size_t close = c.find(')', j);
    if (close != std::string::npos) {
      m.hasList = true;
      m.list = c.substr(j + 1, close - j - 1);
      i = close + 1;
    }
  }
  m.found = true;
  m.rest = c.substr(i);
  return m;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '-' || s.front() == ':')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}
}  // namespace

void applySuppressions(const std::string& text, FileResult& r) {
  std::vector<Suppression> sups;
  std::vector<size_t> open;        // indices of ignore-begin without an end yet
  std::vector<size_t> openNolint;  // the same for NOLINTBEGIN
  std::vector<int> strayEnds;      // lines of a NOLINTEND that closes nothing
  forEachLineComment(text, [&](int lineNo, const std::string& comment, bool alone) {
    const std::string c = comment.substr(2);
    if (Marker m = readMarker(c, false); m.found) {
      if (m.suffix == "-end") {
        if (!open.empty()) {
          sups[open.back()].lastLine = lineNo;
          open.pop_back();
        }
        return;
      }
      Suppression s;
      s.writtenAt = lineNo;
      s.globs = splitRules(m.list);
      s.reason = trim(m.rest);
      s.spelling = "ptoverify: ignore" + m.suffix;
      if (m.suffix == "-begin") {
        s.firstLine = lineNo;
        s.lastLine = 1 << 30;
        open.push_back(sups.size());
      } else {
        s.firstLine = s.lastLine = alone ? lineNo + 1 : lineNo;
      }
      sups.push_back(s);
    } else if (Marker n = readMarker(c, true); n.found) {
      if (n.suffix == "END") {  // closes the innermost NOLINTBEGIN with the same rule list, as clang-tidy
        auto match = std::find_if(openNolint.rbegin(), openNolint.rend(),
                                  [&](size_t i) { return sups[i].globs == splitRules(n.list); });
        if (match == openNolint.rend()) {
          strayEnds.push_back(lineNo);
          return;
        }
        sups[*match].lastLine = lineNo;
        openNolint.erase(std::next(match).base());
        return;
      }
      Suppression s;
      s.writtenAt = lineNo;
      s.globs = splitRules(n.list);
      s.reason = trim(n.rest);
      bool next = n.suffix == "NEXTLINE";
      s.spelling = "NOLINT" + n.suffix;
      s.firstLine = s.lastLine = next ? lineNo + 1 : lineNo;
      if (n.suffix == "BEGIN") {
        s.lastLine = 1 << 30;
        openNolint.push_back(sups.size());
      }
      sups.push_back(s);
    }
  });
  std::vector<Finding> kept;
  for (auto& f : r.findings) {
    const Suppression* by = nullptr;
    for (auto& s : sups) {
      if (f.loc.line < s.firstLine || f.loc.line > s.lastLine) continue;
      if (!s.globs.empty() && !ruleEnabled(f.ruleId, s.globs)) continue;
      s.used = true;
      if (!by) by = &s;
    }
    if (by)
      r.hidden.push_back({std::move(f), true, by->reason.empty() ? "'" + by->spelling + "' (no reason given)" : by->reason});
    else
      kept.push_back(std::move(f));
  }
  r.findings = std::move(kept);
  auto note = [&](const Suppression& s, const std::string& msg) {
    Finding f;
    f.ruleId = "suppression";
    f.severity = Severity::Note;
    f.loc = SourceLoc{r.path, s.writtenAt, 1};
    f.message = msg;
    f.kernel = "";
    r.findings.push_back(std::move(f));
  };
  for (size_t i : openNolint) note(sups[i], "'NOLINTBEGIN' without a matching 'NOLINTEND': it suppresses to the end of the file");
  for (int line : strayEnds) {
    Suppression stray;
    stray.writtenAt = line;
    note(stray, "'NOLINTEND' without a matching 'NOLINTBEGIN' (same rule list)");
  }
  for (const auto& s : sups) {
    if (s.reason.empty()) note(s, "'" + s.spelling + "' without a reason: say why the finding does not apply");
    if (!s.used) note(s, "'" + s.spelling + "' suppresses nothing here; remove it");
  }
}

}  // namespace ptov
