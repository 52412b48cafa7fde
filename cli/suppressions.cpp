#include "cli/suppressions.h"

#include <regex>
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

std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '-' || s.front() == ':')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}
}  // namespace

void applySuppressions(const std::string& text, FileResult& r) {
  static const std::regex kIgnore(R"(ptoverify:\s*ignore(-begin|-end)?\s*(\(([^)]*)\))?(.*))");
  static const std::regex kNolint(R"(\bNOLINT(NEXTLINE)?\b(\(([^)]*)\))?(.*))");
  std::vector<Suppression> sups;
  std::vector<size_t> open;  // indices of ignore-begin without an end yet
  forEachLineComment(text, [&](int lineNo, const std::string& comment, bool alone) {
    const std::string c = comment.substr(2);
    std::smatch m;
    if (std::regex_search(c, m, kIgnore)) {
      std::string kind = m[1];
      if (kind == "-end") {
        if (!open.empty()) {
          sups[open.back()].lastLine = lineNo;
          open.pop_back();
        }
        return;
      }
      Suppression s;
      s.writtenAt = lineNo;
      s.globs = splitRules(m[3]);
      s.reason = trim(m[4]);
      s.spelling = "ptoverify: ignore" + kind;
      if (kind == "-begin") {
        s.firstLine = lineNo;
        s.lastLine = 1 << 30;
        open.push_back(sups.size());
      } else {
        s.firstLine = s.lastLine = alone ? lineNo + 1 : lineNo;
      }
      sups.push_back(s);
    } else if (std::regex_search(c, m, kNolint)) {
      Suppression s;
      s.writtenAt = lineNo;
      s.globs = splitRules(m[3]);
      s.reason = trim(m[4]);
      bool next = m[1].matched;
      s.spelling = next ? "NOLINTNEXTLINE" : "NOLINT";
      s.firstLine = s.lastLine = next ? lineNo + 1 : lineNo;
      sups.push_back(s);
    }
  });
  std::vector<Finding> kept;
  for (auto& f : r.findings) {
    bool suppressed = false;
    for (auto& s : sups) {
      if (f.loc.line < s.firstLine || f.loc.line > s.lastLine) continue;
      if (!s.globs.empty() && !ruleEnabled(f.ruleId, s.globs)) continue;
      s.used = true;
      suppressed = true;
    }
    if (suppressed) ++r.suppressed;
    else kept.push_back(std::move(f));
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
  for (const auto& s : sups) {
    if (s.reason.empty()) note(s, "'" + s.spelling + "' without a reason: say why the finding does not apply");
    if (!s.used) note(s, "'" + s.spelling + "' suppresses nothing here; remove it");
  }
}

}  // namespace ptov
