// --format html[:DIR]: one self-contained static page per run (DIR/index.html): a summary by
// rule and by file, then every finding with its source lines, notes, fix and witness. Witnesses
// are drawn as SVG: a timeline with one row per lane (pipe or core), set -> wait arrows, the op a
// lane is stuck at in red and the two racing accesses of a race in orange with their memory
// ranges; the path lists each step and which way each if went. No script, no network.
#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "analyzer/utf8.h"
#include "cli/report/formats.h"
#include "cli/report/markup_text.h"
#include "cli/text_reporter.h"

namespace ptov {

namespace {
// The lines of the inputs, read once each (a missing or huge file shows no excerpt).
class SourceLines {
 public:
  const std::vector<std::string>& of(const std::string& path) {
    auto it = files_.find(path);
    if (it != files_.end()) return it->second;
    std::vector<std::string>& lines = files_[path];
    std::ifstream in(path, std::ios::binary);
    in.seekg(0, std::ios::end);
    if (!in || in.tellg() > (8 << 20)) return lines;
    in.seekg(0);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

// Lines loc.line-2 .. loc.line+2 with the finding's line marked.
void excerpt(std::ostream& out, SourceLines& sources, const SourceLoc& loc) {
  const auto& lines = sources.of(loc.file);
  if (loc.line < 1 || static_cast<size_t>(loc.line) > lines.size()) return;
  size_t from = static_cast<size_t>(std::max(1, loc.line - 2)), to = std::min(lines.size(), static_cast<size_t>(loc.line) + 2);
  out << "<pre class=\"src\">";
  for (size_t n = from; n <= to; ++n)
    out << "<span class=\"" << (n == static_cast<size_t>(loc.line) ? "hit" : "ctx") << "\"><b>" << n << "</b> "
        << markupText(lines[n - 1]) << "</span>";  // block spans: no newline between them
  out << "</pre>\n";
}

const char* cssClass(const Finding& f) {
  if (f.unknown) return "unknown";
  return f.severity == Severity::Error ? "error" : f.severity == Severity::Warning ? "warning" : "note";
}

// `text` in at most `maxLines` lines of `width` characters, broken at spaces where it can; the
// last line ends in an ellipsis when text is left over (the box's tooltip has all of it).
std::vector<std::string> wrap(const std::string& text, size_t width, size_t maxLines) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size() && lines.size() < maxLines) {
    size_t end = std::min(text.size(), at + width);
    if (end < text.size()) {
      size_t space = text.rfind(' ', end);
      if (space != std::string::npos && space > at) end = space;
    }
    lines.push_back(validUtf8(text.substr(at, end - at)));
    at = end;
    while (at < text.size() && text[at] == ' ') ++at;
  }
  if (at < text.size() && !lines.empty()) lines.back() += "…";
  return lines;
}

// The lane timeline: one row per lane in first-appearance order, events left to right by
// happens-before (the last kMaxEvents of a long witness). `id` keeps the SVG ids unique on the page.
void timeline(std::ostream& out, const Witness& w, size_t id) {
  constexpr size_t kMaxEvents = 40;
  constexpr int kColumn = 212, kRow = 66, kBoxW = 202, kBoxH = 48, kLeft = 120, kTop = 16;
  constexpr size_t kCharsPerLine = 29;
  const auto& ev = w.lanes;
  size_t first = ev.size() > kMaxEvents ? ev.size() - kMaxEvents : 0;
  std::vector<std::string> rows;
  std::map<std::string, int> rowOf;
  for (size_t i = first; i < ev.size(); ++i)
    if (rowOf.emplace(ev[i].lane, static_cast<int>(rows.size())).second) rows.push_back(ev[i].lane);
  // Columns by happens-before, not by the path's order: an event comes after the one before it
  // on its lane and after the set it consumes; events with no order between them share columns.
  std::vector<int> column(ev.size(), 0);
  std::map<std::string, int> laneEnd;
  int columns = 0;
  for (size_t i = first; i < ev.size(); ++i) {
    int c = laneEnd.count(ev[i].lane) ? laneEnd[ev[i].lane] + 1 : 0;
    if (ev[i].matchedWith >= static_cast<int>(first)) c = std::max(c, column[static_cast<size_t>(ev[i].matchedWith)] + 1);
    column[i] = c;
    laneEnd[ev[i].lane] = c;
    columns = std::max(columns, c + 1);
  }
  auto x = [&](size_t i) { return kLeft + column[i] * kColumn; };
  auto y = [&](size_t i) { return kTop + rowOf[ev[i].lane] * kRow; };
  int width = kLeft + columns * kColumn, height = kTop + static_cast<int>(rows.size()) * kRow;
  if (first) out << "<p class=\"small\">" << first << " earlier event(s) not drawn.</p>\n";
  out << "<div class=\"scroll\"><svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height << "\" role=\"img\">\n"
      << "<defs><marker id=\"arrow-" << id << "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
         "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#2563eb\"/></marker></defs>\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    int ry = kTop + static_cast<int>(r) * kRow;
    out << "<text class=\"lane\" x=\"4\" y=\"" << ry + kBoxH / 2 + 4 << "\">" << markupText(rows[r]) << "</text>"
        << "<line class=\"rail\" x1=\"" << kLeft - 8 << "\" y1=\"" << ry + kBoxH / 2 << "\" x2=\"" << width << "\" y2=\""
        << ry + kBoxH / 2 << "\"/>\n";
  }
  std::vector<size_t> racing;
  for (size_t i = first; i < ev.size(); ++i) {
    const LaneEvent& e = ev[i];
    if (e.racing) racing.push_back(i);
    out << "<g class=\"event" << (e.stuck ? " stuck" : e.racing ? " racing" : "") << "\"><title>" << markupText(e.label)
        << "</title><rect x=\"" << x(i) << "\" y=\"" << y(i) << "\" width=\"" << kBoxW << "\" height=\"" << kBoxH
        << "\" rx=\"4\"/>";
    std::vector<std::string> rowsOfText = wrap(e.label, kCharsPerLine, 3);
    for (size_t l = 0; l < rowsOfText.size(); ++l)
      out << "<text x=\"" << x(i) + 6 << "\" y=\"" << y(i) + 14 + 13 * static_cast<int>(l) << "\">" << markupText(rowsOfText[l]) << "</text>";
    out << "</g>\n";
  }
  for (size_t i = first; i < ev.size(); ++i) {
    if (ev[i].matchedWith < static_cast<int>(first)) continue;
    size_t s = static_cast<size_t>(ev[i].matchedWith);
    out << "<path class=\"match\" marker-end=\"url(#arrow-" << id << ")\" d=\"M" << x(s) + kBoxW << "," << y(s) + kBoxH / 2 << " C"
        << x(s) + kBoxW + 10 << "," << y(s) + kBoxH / 2 << " " << x(i) - 10 << "," << y(i) + kBoxH / 2 << " " << x(i)
        << "," << y(i) + kBoxH / 2 << "\"/>\n";
  }
  if (racing.size() == 2)
    out << "<line class=\"race\" x1=\"" << x(racing[0]) + kBoxW / 2 << "\" y1=\"" << y(racing[0]) + kBoxH << "\" x2=\""
        << x(racing[1]) + kBoxW / 2 << "\" y2=\"" << y(racing[1]) << "\"/>\n";
  out << "</svg></div>\n";
}

// The two racing accesses' byte ranges on one address axis, the shared bytes outlined (only
// when both placements are known).
void memoryRanges(std::ostream& out, const Witness& w) {
  std::vector<const LaneEvent*> r;
  for (const auto& e : w.lanes)
    if (e.racing && e.rangeBegin >= 0 && e.rangeEnd > e.rangeBegin) r.push_back(&e);
  if (r.size() != 2) return;
  int64_t lo = std::min(r[0]->rangeBegin, r[1]->rangeBegin), hi = std::max(r[0]->rangeEnd, r[1]->rangeEnd);
  constexpr int kLeft = 120, kWidth = 720, kBar = 22;
  auto px = [&](int64_t v) { return kLeft + static_cast<int>(static_cast<double>(v - lo) * kWidth / static_cast<double>(hi - lo)); };
  out << "<svg class=\"ranges\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kWidth + 80 << "\" height=\"96\">";
  for (size_t k = 0; k < 2; ++k) {
    int y = 8 + static_cast<int>(k) * (kBar + 8);
    out << "<text x=\"4\" y=\"" << y + 15 << "\">" << markupText(r[k]->lane) << "</text><rect class=\"bar\" x=\"" << px(r[k]->rangeBegin)
        << "\" y=\"" << y << "\" width=\"" << std::max(2, px(r[k]->rangeEnd) - px(r[k]->rangeBegin)) << "\" height=\"" << kBar
        << "\"><title>" << markupText(r[k]->label) << "</title></rect>";
  }
  int64_t ob = std::max(r[0]->rangeBegin, r[1]->rangeBegin), oe = std::min(r[0]->rangeEnd, r[1]->rangeEnd);
  if (ob < oe)
    out << "<rect class=\"overlap\" x=\"" << px(ob) << "\" y=\"6\" width=\"" << std::max(2, px(oe) - px(ob))
        << "\" height=\"" << 2 * kBar + 12 << "\"/>";
  out << "<text x=\"" << kLeft << "\" y=\"88\">" << lo << "</text><text x=\"" << kLeft + kWidth - 40 << "\" y=\"88\">" << hi
      << "</text>" << (ob < oe ? "<text x=\"" + std::to_string(px(ob)) + "\" y=\"74\">shared bytes [" + std::to_string(ob) +
                                     ", " + std::to_string(oe) + ")</text>"
                               : "")
      << "</svg>\n";
}

void witness(std::ostream& out, const Witness& w, size_t id) {
  std::string values = valuesText(w.values);
  if (!values.empty()) out << "<p><b>Witness:</b> <code>" << markupText(values) << "</code></p>\n";
  if (!w.lanes.empty()) {
    bool race = std::any_of(w.lanes.begin(), w.lanes.end(), [](const LaneEvent& e) { return e.racing; });
    out << "<p class=\"small\">" << (race ? "The two unordered accesses (orange) and the sync between them, per pipe."
                                          : "Each lane's events in issue order; blue arrows: the set each wait consumes; red: where a lane is stuck.")
        << "</p>\n";
    timeline(out, w, id);
    if (race) {
      out << "<ul class=\"race-list\">";
      for (const auto& e : w.lanes)
        if (e.racing) out << "<li><b>" << markupText(e.lane) << "</b>: " << markupText(e.label) << "</li>";
      out << "</ul>\n";
      memoryRanges(out, w);
    }
  }
  if (!w.path.empty() || w.omittedSteps) {
    out << "<details open><summary>Path (" << w.path.size() << " step(s)"
        << (w.omittedSteps ? ", " + std::to_string(w.omittedSteps) + " earlier omitted" : "") << ")</summary><ol class=\"path\">";
    for (const auto& s : w.path)
      out << "<li" << (s.what.rfind("took the ", 0) == 0 ? " class=\"branch\"" : "") << "><code>" << markupText(formatLoc(s.loc))
          << "</code> " << markupText(s.what) << "</li>";
    out << "</ol></details>\n";
  }
  if (!w.state.empty()) {
    out << "<p><b>State:</b></p><ul>";
    for (const auto& s : w.state) out << "<li>" << markupText(s) << "</li>";
    out << "</ul>\n";
  }
}

const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2937;max-width:1400px}
h1{font-size:22px} h2{font-size:18px;margin-top:28px} code,pre{font-family:ui-monospace,monospace;font-size:12.5px}
table{border-collapse:collapse;margin:8px 0} th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:left} td.n{text-align:right}
.finding{border:1px solid #d1d5db;border-left:6px solid #9ca3af;border-radius:4px;padding:8px 14px;margin:14px 0}
.finding.error{border-left-color:#dc2626} .finding.warning{border-left-color:#d97706}
.finding.note{border-left-color:#2563eb} .finding.unknown{border-left-color:#7c3aed}
.badge{display:inline-block;border-radius:3px;padding:0 6px;color:#fff;font-weight:600;font-size:12px}
.badge.error{background:#dc2626} .badge.warning{background:#d97706} .badge.note{background:#2563eb} .badge.unknown{background:#7c3aed}
pre.src{background:#f9fafb;border:1px solid #e5e7eb;padding:6px;overflow-x:auto} pre.src .hit{background:#fee2e2;display:block}
pre.src .ctx{display:block;color:#4b5563} pre.src b{display:inline-block;width:3em;color:#9ca3af;font-weight:400}
.small{color:#6b7280;font-size:12.5px} .scroll{overflow-x:auto;border:1px solid #e5e7eb;background:#fff}
svg.timeline text{font:11px ui-monospace,monospace;fill:#111827} svg.timeline text.lane{font-weight:700}
svg.timeline .rail{stroke:#e5e7eb;stroke-width:2} svg.timeline rect{fill:#f3f4f6;stroke:#6b7280}
svg.timeline .stuck rect{fill:#fee2e2;stroke:#dc2626;stroke-width:2} svg.timeline .racing rect{fill:#ffedd5;stroke:#ea580c;stroke-width:2}
svg.timeline .match{fill:none;stroke:#2563eb;stroke-width:1.5} svg.timeline .race{stroke:#ea580c;stroke-width:2;stroke-dasharray:6 4}
svg.ranges text{font:11px ui-monospace,monospace} svg.ranges .bar{fill:#fdba74;stroke:#ea580c}
svg.ranges .overlap{fill:none;stroke:#dc2626;stroke-width:2;stroke-dasharray:4 3}
ol.path li.branch{color:#7c3aed} a.permalink{color:#9ca3af;text-decoration:none;margin-left:6px}
body:has(section.finding:target) section.finding:not(:target),body:has(section.finding:target) .overview{display:none}
.only{display:none} body:has(section.finding:target) .only{display:block}
)";
}  // namespace

void writeHtml(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  SourceLines sources;
  std::map<std::string, std::array<size_t, 4>> perRule, perFile;  // errors, warnings, notes, unknown
  size_t kernels = 0, total = 0, hidden = 0;
  auto slot = [](const Finding& f) { return f.unknown ? 3 : 2 - static_cast<int>(f.severity); };
  for (const auto& file : result.files) {
    kernels += file.kernelNames.size();
    hidden += file.hidden.size();
    perFile[file.path];
    for (const auto& f : file.findings) {
      ++perRule[f.ruleId][slot(f)];
      ++perFile[file.path][slot(f)];
      ++total;
    }
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ptoverify report</title>"
      << "<meta name=\"viewport\" content=\"width=device-width\"><style>" << kStyle << "</style></head><body>\n"
      << "<h1>ptoverify report</h1>\n<p class=\"only\">One finding of the report: <a href=\"#\">show all</a>.</p>\n"
      << "<div class=\"overview\"><p>" << result.files.size() << " file(s), " << kernels << " kernel(s), " << total
      << " finding(s)" << (hidden ? ", " + std::to_string(hidden) + " suppressed or in the baseline" : "")
      << ". ptoverify " << markupText(o.toolVersion) << ".</p>\n";
  auto countsRow = [&](const std::array<size_t, 4>& c) {
    std::ostringstream r;
    for (size_t v : c) r << "<td class=\"n\">" << v << "</td>";
    return r.str();
  };
  out << "<h2>By rule</h2><table><tr><th>rule</th><th>errors</th><th>warnings</th><th>notes</th><th>unknown</th></tr>\n";
  for (const auto& [rule, c] : perRule)
    out << "<tr><td><a href=\"#rule-" << markupText(rule) << "\"><code>" << markupText(rule) << "</code></a></td>" << countsRow(c) << "</tr>\n";
  out << "</table>\n<h2>By file</h2><table><tr><th>file</th><th>errors</th><th>warnings</th><th>notes</th><th>unknown</th></tr>\n";
  for (const auto& [path, c] : perFile)
    out << "<tr><td><code>" << markupText(path) << "</code></td>" << countsRow(c) << "</tr>\n";
  out << "</table>\n";
  std::vector<std::string> inputErrors = result.problems;
  for (const auto& file : result.files)
    for (const auto& d : file.inputDiagnostics)
      if (d.level == InputDiagnostic::Level::Error) inputErrors.push_back(formatLoc(d.loc) + ": error: " + d.message);
  if (!inputErrors.empty()) {
    out << "<h2>Input errors</h2><ul>";
    for (const auto& e : inputErrors) out << "<li><code>" << markupText(e) << "</code></li>";
    out << "</ul>\n";
  }
  out << "<h2>Findings</h2>\n<p class=\"small\">Each finding's # link shows it alone.</p></div>\n";
  std::map<std::string, bool> anchored;
  size_t n = 0;
  for (const auto& file : result.files)
    for (const auto& f : file.findings) {
      ++n;
      const char* cls = cssClass(f);
      out << "<section class=\"finding " << cls << "\" id=\"f-" << n << "\">";
      if (!anchored[f.ruleId]) {
        out << "<a id=\"rule-" << markupText(f.ruleId) << "\"></a>";
        anchored[f.ruleId] = true;
      }
      out << "<p><span class=\"badge " << cls << "\">" << (f.grade.empty() ? std::string(findingLevel(f)) : markupText(f.grade))
          << "</span> <code>" << markupText(f.ruleId) << "</code> at <code>" << markupText(formatLoc(f.loc)) << "</code>"
          << (f.kernel.empty() ? "" : " in <code>" + markupText(f.kernel) + "</code>") << "<a class=\"permalink\" href=\"#f-" << n
          << "\">#</a></p>\n<p>" << markupText(f.message) << "</p>\n";
      if (!f.fix.empty()) out << "<p><b>Fix:</b> " << markupText(f.fix) << "</p>\n";
      excerpt(out, sources, f.loc);
      if (!f.notes.empty()) {
        out << "<ul>";
        for (const auto& note : f.notes)
          out << "<li><code>" << markupText(formatLoc(note.loc)) << "</code> " << markupText(note.message) << "</li>";
        out << "</ul>\n";
      }
      if (f.witness) witness(out, *f.witness, n);
      out << "</section>\n";
    }
  if (!n) out << "<p>No findings.</p>\n";
  out << "</body></html>\n";
}

}  // namespace ptov
