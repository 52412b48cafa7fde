#include "cli/text_reporter.h"

#include <ostream>

namespace ptov {

namespace {
const char* colorFor(const std::string& level) {
  if (level == "error") return "\033[1;31m";
  if (level == "warning") return "\033[1;35m";
  return "\033[1;36m";
}

void line(std::ostream& out, bool color, const SourceLoc& loc, const std::string& level, const std::string& msg,
          const std::string& ruleId) {
  out << formatLoc(loc) << ": ";
  if (color) out << colorFor(level) << level << ":\033[0m ";
  else out << level << ": ";
  out << msg;
  if (!ruleId.empty()) out << " [" << ruleId << "]";
  out << '\n';
}

const char* levelName(InputDiagnostic::Level l) {
  switch (l) {
    case InputDiagnostic::Level::Error: return "error";
    case InputDiagnostic::Level::Warning: return "warning";
    case InputDiagnostic::Level::Note: return "note";
  }
  return "error";
}
}  // namespace

std::string formatLoc(const SourceLoc& loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

void printText(const CheckResult& result, std::ostream& out, bool color) {
  size_t counts[3] = {0, 0, 0};
  size_t kernels = 0, inputErrors = 0;
  for (const auto& p : result.problems) {
    out << p << '\n';
    ++inputErrors;
  }
  for (const auto& f : result.files) {
    kernels += f.kernels;
    for (const auto& d : f.inputDiagnostics) {
      line(out, color, d.loc, levelName(d.level), d.message, "");
      if (d.level == InputDiagnostic::Level::Error) ++inputErrors;
    }
    for (const auto& x : f.findings) {
      line(out, color, x.loc, severityName(x.severity), x.message, x.ruleId);
      for (const auto& n : x.notes) line(out, color, n.loc, "note", n.message, "");
      ++counts[static_cast<int>(x.severity)];
    }
  }
  out << "ptoverify: " << result.files.size() << " file(s), " << kernels << " kernel(s): " << counts[2]
      << " error(s), " << counts[1] << " warning(s), " << counts[0] << " note(s)";
  if (inputErrors) out << ", " << inputErrors << " input error(s)";
  out << '\n';
}

}  // namespace ptov
