#include "cli/text_reporter.h"

#include "analyzer/utf8.h"

#include <ostream>

namespace ptov {

namespace {
const char* colorFor(const std::string& level) {
  if (level == "error") return "\033[1;31m";
  if (level == "warning") return "\033[1;35m";
  if (level == "unknown") return "\033[1;33m";
  return "\033[1;36m";
}

// One report line, made whole and then written (a stream write per piece was most of the
// text report's time).
void line(std::ostream& out, bool color, const SourceLoc& loc, const std::string& level, const std::string& msg,
          const std::string& ruleId) {
  std::string text = formatLoc(loc);
  text += ": ";
  if (color) text += colorFor(level);
  text += level;
  text += color ? ":\033[0m " : ": ";
  text += msg;
  if (!ruleId.empty()) text += " [" + ruleId + "]";
  text += '\n';
  out << validUtf8(text);
}

const char* levelName(InputDiagnostic::Level l) {
  switch (l) {
    case InputDiagnostic::Level::Error: return "error";
    case InputDiagnostic::Level::Warning: return "warning";
    case InputDiagnostic::Level::Note: return "note";
  }
  return "error";
}
// A witness as note lines: the values Z3 chose, the path, the state where it is stuck.
void printWitness(std::ostream& out, bool color, const SourceLoc& at, const Witness& w) {
  if (!w.values.empty()) line(out, color, at, "note", "witness: " + valuesText(w.values), "");
  if (w.omittedSteps) line(out, color, at, "note", "path: " + std::to_string(w.omittedSteps) + " earlier step(s) omitted", "");
  for (const auto& step : w.path) line(out, color, step.loc, "note", "path: " + step.what, "");
  for (const auto& s : w.state) line(out, color, at, "note", "state: " + s, "");
}
}  // namespace

std::string formatLoc(const SourceLoc& loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

void printText(const CheckResult& result, std::ostream& out, bool color, bool quiet, bool summaryOnly) {
  size_t counts[3] = {0, 0, 0};
  size_t kernels = 0, inputErrors = 0, unknowns = 0, suppressed = 0, baselined = 0, atBase = 0, notModelled = 0,
         inputWarnings = 0, notChecked = 0;
  FunctionCoverage coverage;
  for (const auto& p : result.problems) {
    out << p << '\n';
    ++inputErrors;
  }
  for (const auto& f : result.files) {
    kernels += f.kernelNames.size();
    suppressed += f.suppressedCount();
    baselined += f.baselinedCount();
    atBase += f.atBaseCount();
    notModelled += f.notModelled.size();
    coverage.full += f.coverage.full;
    coverage.partly += f.coverage.partly;
    coverage.none += f.coverage.none;
    for (const auto& k : f.notChecked) notChecked += k.size();
    for (const auto& d : f.inputDiagnostics) {
      bool shown =
          summaryOnly ? d.level == InputDiagnostic::Level::Error : !quiet || d.level != InputDiagnostic::Level::Note;
      if (shown) line(out, color, d.loc, levelName(d.level), d.message, "");
      if (d.level == InputDiagnostic::Level::Error) ++inputErrors;
      if (d.level == InputDiagnostic::Level::Warning) ++inputWarnings;
    }
    for (const auto& x : f.findings) {
      if (!summaryOnly) {
        line(out, color, x.loc, findingLevel(x), (x.grade.empty() ? "" : x.grade + ": ") + x.message, x.ruleId);
        for (const auto& n : x.notes) line(out, color, n.loc, "note", n.message, "");
        if (!x.fix.empty()) line(out, color, x.loc, "note", "fix: " + x.fix, "");
        if (x.witness) printWitness(out, color, x.loc, *x.witness);
      }
      if (x.unknown) ++unknowns;
      else ++counts[static_cast<int>(x.severity)];
    }
  }
  if (quiet) return;
  out << "ptoverify: " << result.files.size() << " file(s), " << kernels << " kernel(s): " << counts[2]
      << " error(s), " << counts[1] << " warning(s), " << counts[0] << " note(s)";
  if (unknowns) out << ", " << unknowns << " unknown";
  if (suppressed) out << ", " << suppressed << " suppressed";
  if (baselined) out << ", " << baselined << " in the baseline";
  if (atBase) out << ", " << atBase << " present before the change";
  if (inputErrors) out << ", " << inputErrors << " input error(s)";
  if (inputWarnings) out << ", " << inputWarnings << " input warning(s)";
  if (notModelled) out << ", " << notModelled << " construct(s) not modelled";
  if (coverage.full + coverage.partly + coverage.none)
    out << ", control code: " << coverage.full << " function(s) modelled fully, " << coverage.partly << " partly, "
        << coverage.none << " not at all";
  if (notChecked) out << ", " << notChecked << " rule(s) not checked for want of facts (ptoverify audit says which)";
  if (result.untrustedCacheEntries)
    out << ", " << result.untrustedCacheEntries << " solver cache entr" << (result.untrustedCacheEntries == 1 ? "y" : "ies")
        << " not trusted (asked again)";
  out << '\n';
}

}  // namespace ptov
