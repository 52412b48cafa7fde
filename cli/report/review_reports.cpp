// The review-bot formats: rdjson / rdjsonl (reviewdog's Diagnostic format), GitHub workflow
// commands (annotations), GitCode PR line comments (reviewdog has no GitCode reporter), and a
// markdown PR comment.
#include <algorithm>
#include <cstdio>
#include <array>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>
#include <sstream>
#include <ostream>

#include "cli/report/formats.h"
#include "analyzer/hash.h"
#include "analyzer/utf8.h"
#include "cli/report/json_text.h"
#include "cli/source_root.h"

namespace ptov {

namespace {
using nlohmann::json;

const char* rdSeverity(const Finding& f) {
  if (f.unknown) return "WARNING";
  return f.severity == Severity::Error ? "ERROR" : f.severity == Severity::Warning ? "WARNING" : "INFO";
}

json rdLocation(const SourceLoc& l) {
  return {{"path", l.file}, {"range", {{"start", {{"line", std::max(1, l.line)}, {"column", std::max(1, l.col)}}}}}};
}

// The finding with its review level, fix and witness, as one review comment body.
std::string commentBody(const Finding& f) {
  std::string body = (f.unknown ? "unknown: " : "") + (f.grade.empty() ? "" : "[" + f.grade + "] ") + f.message;
  if (f.witness && !f.witness->values.empty()) body += "\nwitness: " + valuesText(f.witness->values);
  if (!f.fix.empty()) body += "\nFix: " + f.fix;
  body += "\n(`ptoverify explain " + f.ruleId + "` shows the bad and good form)";
  return body;
}

json rdDiagnostic(const Finding& f) {
  json d = {{"message", commentBody(f)},
            {"location", rdLocation(f.loc)},
            {"severity", rdSeverity(f)},
            {"code", {{"value", f.ruleId}}},
            {"original_output", f.loc.file + ":" + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col) + ": " +
                                    findingLevel(f) + ": " + f.message + " [" + f.ruleId + "]"}};
  json related = json::array();
  for (const auto& n : f.notes) related.push_back({{"message", n.message}, {"location", rdLocation(n.loc)}});
  if (f.witness)
    for (const auto& s : f.witness->path) related.push_back({{"message", "path: " + s.what}, {"location", rdLocation(s.loc)}});
  if (!related.empty()) d["related_locations"] = related;
  return d;
}

// GitHub workflow commands escape %, CR and LF in data, and also : and , in properties.
std::string ghData(const std::string& raw) {
  std::string o;
  for (char c : validUtf8(raw)) {
    if (c == '%') o += "%25";
    else if (c == '\r') o += "%0D";
    else if (c == '\n') o += "%0A";
    else o += c;
  }
  return o;
}
std::string ghProperty(const std::string& s) {
  std::string o;
  for (char c : ghData(s)) {
    if (c == ':') o += "%3A";
    else if (c == ',') o += "%2C";
    else o += c;
  }
  return o;
}

// Escapes what markdown would read as a table cell or HTML, except inside `code spans`, where a
// backslash would show as itself (`devProg->devArgs`).
std::string mdEscape(const std::string& s) {
  std::string o;
  bool code = false;
  for (char c : s) {
    if (c == '`') code = !code;
    if (!code && (c == '|' || c == '<' || c == '>')) o += '\\';
    o += c;
  }
  return o;
}

// The findings a reviewer gets one comment for: those of one rule on one line (the same defect
// reached from several kernels or callers, or by several paths). The first leads; the others are
// listed in its comment.
struct ReviewGroup {
  const Finding* lead = nullptr;
  std::vector<const Finding*> others;
};

std::vector<ReviewGroup> reviewGroups(const CheckResult& result) {
  // The most severe finding leads the comment: an error, a warning, an unknown, a note.
  auto rank = [](const Finding& f) {
    return f.unknown ? 2 : f.severity == Severity::Error ? 0 : f.severity == Severity::Warning ? 1 : 3;
  };
  std::vector<ReviewGroup> groups;
  std::map<std::tuple<std::string, int, std::string>, size_t> at;
  for (const auto& file : result.files)
    for (const auto& f : file.findings) {
      auto [it, fresh] = at.try_emplace({f.loc.file, f.loc.line, f.ruleId}, groups.size());
      if (fresh) {
        groups.push_back({&f, {}});
        continue;
      }
      ReviewGroup& g = groups[it->second];
      g.others.push_back(&f);
      if (rank(f) < rank(*g.lead)) std::swap(g.lead, g.others.back());
    }
  return groups;
}

// "Also on this line: kernel `b`, kernel `c` (message)": what the others add to the lead.
std::string alsoText(const ReviewGroup& g) {
  if (g.others.empty()) return "";
  std::string out = "Also on this line (" + std::to_string(g.others.size()) + " more):";
  for (const Finding* f : g.others) {
    out += "\n- " + std::string(f->grade.empty() ? "kernel" : "function") + " `" + f->kernel + "`";
    if (f->message != g.lead->message) out += ": " + f->message;
  }
  return out;
}

// A stable marker of the comment, for a poster that skips comments already on the pull request:
// the file (its path in the repository, hashed: no spaces) and the smallest fingerprint of the
// group (line-independent, cli/report/fingerprint.h; the same fact in two files is two comments).
std::string reviewMarker(const ReviewGroup& g, const std::string& path) {
  std::string fp = g.lead->fingerprint;
  for (const Finding* f : g.others) fp = std::min(fp, f->fingerprint);
  char file[17];
  std::snprintf(file, sizeof file, "%016llx", static_cast<unsigned long long>(fnv1a(path)));
  return "<!-- ptoverify:" + g.lead->ruleId + ":" + file + ":" + fp + " -->";
}
}  // namespace

void writeRdjson(const CheckResult& result, std::ostream& out, bool oneDiagnosticPerLine) {
  json diagnostics = json::array();
  for (const auto& file : result.files) {
    for (const auto& d : file.inputDiagnostics)
      if (d.level == InputDiagnostic::Level::Error)
        diagnostics.push_back({{"message", d.message}, {"location", rdLocation(d.loc)}, {"severity", "ERROR"},
                               {"code", {{"value", "input"}}}});
  }
  for (const auto& g : reviewGroups(result)) {
    json d = rdDiagnostic(*g.lead);
    if (!g.others.empty()) d["message"] = d["message"].get<std::string>() + "\n" + alsoText(g);
    diagnostics.push_back(std::move(d));
  }
  if (oneDiagnosticPerLine) {
    for (const auto& d : diagnostics) out << jsonText(d) << '\n';
    return;
  }
  json doc = {{"source", {{"name", "ptoverify"}}}, {"diagnostics", diagnostics}};
  out << jsonText(doc, 2) << '\n';
}

// The review level a finding is recorded with on GitCode (the timing rules' Blocker / Major /
// Minor): a timing rule's own grade, else by severity.
std::string reviewLevel(const Finding& f) {
  if (!f.grade.empty()) return f.grade;
  if (f.unknown) return "Major";
  return f.severity == Severity::Error ? "Blocker" : f.severity == Severity::Warning ? "Major" : "Minor";
}

void writeGitcode(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  // One request body per finding for `POST /api/v5/repos/{owner}/{repo}/pulls/{number}/comments`:
  // `position` is the line in the PR head's file (`line`/`side` would silently turn the comment
  // into a PR-level one), and a comment cannot be edited afterwards, so the body is complete.
  json comments = json::array();
  for (const auto& g : reviewGroups(result)) {
    const Finding& f = *g.lead;
    bool inside = false;
    std::string path = pathUnderRoot(f.loc.file, o.sourceRoot, &inside);
    if (!inside) continue;  // GitCode places a comment only on a file of the repository
    std::string level = reviewLevel(f);
    std::string body = "**" + level + "** `" + f.ruleId + "`" + (f.unknown ? " (unknown)" : "") + "\n\n" +
                       "**Problem:** " + f.message;
    if (f.witness && !f.witness->values.empty()) body += "\n\nWitness: " + valuesText(f.witness->values);
    for (const auto& n : f.notes) {
      bool noteInside = false;
      std::string notePath = pathUnderRoot(n.loc.file, o.sourceRoot, &noteInside);
      body += "\n- " + notePath + ":" + std::to_string(n.loc.line) + ": " + n.message;
    }
    if (!g.others.empty()) body += "\n\n" + alsoText(g);
    body += "\n\n**Fix:** " + (f.fix.empty() ? "see `ptoverify explain " + f.ruleId + "` (bad and good form)" : f.fix);
    body += "\n\n" + reviewMarker(g, path);
    comments.push_back({{"body", validUtf8(body)},
                        {"path", path},
                        {"position", std::max(1, f.loc.line)},
                        {"need_to_resolve", level != "Minor"}});
  }
  out << jsonText(comments, 2) << '\n';
}

void writeGithub(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  // The runner shows at most kGithubAnnotationsPerType of each type per step and drops the rest
  // silently; the ones past it are counted, and one last notice (within the notices' share)
  // says how many and where the full report is.
  struct Annotation {
    std::string type, line;
  };
  std::vector<Annotation> all;
  // GitHub places an annotation by its path in the repository: relative to the source root.
  auto path = [&](const std::string& file) { return o.sourceRoot.empty() ? file : pathUnderRoot(file, o.sourceRoot); };
  for (const auto& p : result.problems) all.push_back({"error", "::error::" + ghData(p)});
  for (const auto& file : result.files) {
    for (const auto& d : file.inputDiagnostics)
      if (d.level == InputDiagnostic::Level::Error)
        all.push_back({"error", "::error file=" + ghProperty(path(d.loc.file)) + ",line=" + std::to_string(d.loc.line) +
                                    ",col=" + std::to_string(d.loc.col) + ",title=input error::" + ghData(d.message)});
    for (const auto& f : file.findings) {
      std::string cmd = f.unknown ? "warning" : f.severity == Severity::Error ? "error"
                                            : f.severity == Severity::Warning ? "warning"
                                                                              : "notice";
      all.push_back({cmd, "::" + cmd + " file=" + ghProperty(path(f.loc.file)) + ",line=" + std::to_string(f.loc.line) +
                              ",col=" + std::to_string(f.loc.col) + ",title=" +
                              ghProperty("ptoverify " + f.ruleId + (f.unknown ? " (unknown)" : "")) + "::" +
                              ghData(commentBody(f))});
    }
  }
  std::map<std::string, size_t> total;
  for (const auto& a : all) ++total[a.type];
  bool capped = false;
  for (const auto& [type, n] : total) capped |= n > kGithubAnnotationsPerType;
  std::map<std::string, size_t> limit = {{"error", kGithubAnnotationsPerType},
                                         {"warning", kGithubAnnotationsPerType},
                                         {"notice", kGithubAnnotationsPerType - (capped ? 1 : 0)}};
  capped = false;
  for (const auto& [type, n] : total) capped |= n > limit[type];
  std::map<std::string, size_t> shown;
  for (const auto& a : all)
    if (shown[a.type]++ < limit[a.type]) out << a.line << '\n';
  if (!capped) return;
  std::string left;
  for (const auto& [type, n] : total)
    if (n > limit[type]) left += (left.empty() ? "" : ", ") + std::to_string(n - limit[type]) + " " + type + "(s)";
  out << "::notice title=ptoverify::" << ghData(left + " not annotated (GitHub shows " +
                                                std::to_string(kGithubAnnotationsPerType) + " per type and step); " +
                                                o.fullReportHint)
      << '\n';
}

namespace {
// One finding as its markdown list entry (with the fix, the notes and the witness folded away).
std::string markdownEntry(const ReviewGroup& g) {
  const Finding& f = *g.lead;
  std::ostringstream out;
  // Review findings (timing rules, on control functions) lead with their review level.
  std::string level = f.grade.empty() ? "**" + std::string(findingLevel(f)) + "**"
                                      : "**" + f.grade + "** (" + findingLevel(f) + ")";
  out << "- " << level << " `" << f.ruleId << "` at `" << f.loc.file << ":" << f.loc.line << ":" << f.loc.col
      << "` (" << (f.grade.empty() ? "kernel" : "function") << " `" << f.kernel << "`): " << mdEscape(f.message) << '\n';
  if (!f.fix.empty()) out << "  - **Fix:** " << mdEscape(f.fix) << '\n';
  for (const Finding* other : g.others)
    out << "  - also " << (other->grade.empty() ? "kernel" : "function") << " `" << other->kernel << "`"
        << (other->message == f.message ? "" : ": " + mdEscape(other->message)) << '\n';
  std::vector<std::string> lines;
  for (const auto& n : f.notes)
    lines.push_back("`" + n.loc.file + ":" + std::to_string(n.loc.line) + "` " + mdEscape(n.message));
  if (f.witness) {
    if (!f.witness->values.empty()) lines.push_back("witness: `" + valuesText(f.witness->values) + "`");
    for (const auto& s : f.witness->path)
      lines.push_back("path `" + s.loc.file + ":" + std::to_string(s.loc.line) + "` " + mdEscape(s.what));
    for (const auto& s : f.witness->state) lines.push_back("state: " + mdEscape(s));
  }
  if (lines.empty()) return validUtf8(out.str());
  // Long witnesses fold away so the comment stays readable.
  bool fold = lines.size() > 4;
  if (fold) out << "  <details><summary>witness and notes (" << lines.size() << " lines)</summary>\n\n";
  for (const auto& l : lines) out << "  - " << l << '\n';
  if (fold) out << "\n  </details>\n";
  return validUtf8(out.str());
}

// Errors, then warnings, then unknown, then notes; file order within each.
int markdownRank(const Finding& f) {
  if (f.unknown) return 2;
  return f.severity == Severity::Error ? 0 : f.severity == Severity::Warning ? 1 : 3;
}
}  // namespace

void writeMarkdown(const CheckResult& result, std::ostream& finalOut, const ReportOptions& o) {
  std::ostringstream out;  // paths, names and messages hold the inputs' bytes: made valid UTF-8
  // rule -> errors, warnings, notes, unknown
  std::map<std::string, std::array<size_t, 4>> perRule;
  size_t kernels = 0, total = 0, inputErrors = result.problems.size();
  for (const auto& file : result.files) {
    kernels += file.kernelNames.size();
    for (const auto& d : file.inputDiagnostics) inputErrors += d.level == InputDiagnostic::Level::Error;
    for (const auto& f : file.findings) {
      auto& c = perRule[f.ruleId];
      ++c[f.unknown ? 3 : 2 - static_cast<int>(f.severity)];
      ++total;
    }
  }
  std::vector<ReviewGroup> findings = reviewGroups(result);
  out << "## ptoverify: " << total << " finding(s) in " << result.files.size() << " file(s), " << kernels
      << " kernel(s)\n\n";
  if (inputErrors) out << "**" << inputErrors << " input error(s)**: some inputs could not be read or parsed.\n\n";
  if (perRule.empty()) {
    finalOut << validUtf8(out.str()) << "No findings.\n";
    return;
  }
  out << "| rule | errors | warnings | notes | unknown |\n| --- | ---: | ---: | ---: | ---: |\n";
  for (const auto& [rule, c] : perRule)
    out << "| `" << rule << "` | " << c[0] << " | " << c[1] << " | " << c[2] << " | " << c[3] << " |\n";
  out << '\n';
  std::stable_sort(findings.begin(), findings.end(), [](const ReviewGroup& a, const ReviewGroup& b) {
    return markdownRank(*a.lead) < markdownRank(*b.lead);
  });
  // Within the host's comment limit (bytes >= characters, so counting bytes is safe), with room
  // for the line that says what was left out.
  std::string text = validUtf8(out.str());
  const size_t room = o.markdownMaxChars > 400 ? o.markdownMaxChars - 400 : 0;
  size_t shown = 0;  // findings, as the headline counts them
  for (const ReviewGroup& g : findings) {
    std::string entry = markdownEntry(g);
    if (text.size() + entry.size() > room) break;
    text += entry;
    shown += 1 + g.others.size();
  }
  if (shown < total)
    text += "\n**" + std::to_string(total - shown) + " of " + std::to_string(total) +
            " finding(s) left out** to stay within the comment limit (" + std::to_string(o.markdownMaxChars) +
            " characters); " + validUtf8(o.fullReportHint) + "\n";
  finalOut << text;
}

}  // namespace ptov
