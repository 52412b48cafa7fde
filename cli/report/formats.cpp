// The registry of --format names: each format's writer and what the CLI and the tests need to
// know about it. A new format is its writer file and one entry here.
#include "cli/report/formats.h"

#include "cli/text_reporter.h"

namespace ptov {

namespace {
void writeText(const CheckResult& r, std::ostream& out, const ReportOptions& o) { printText(r, out, o.color, o.quiet); }
void writeRdjsonDocument(const CheckResult& r, std::ostream& out, const ReportOptions&) { writeRdjson(r, out, false); }
void writeRdjsonLines(const CheckResult& r, std::ostream& out, const ReportOptions&) { writeRdjson(r, out, true); }
}  // namespace

const std::vector<ReportFormat>& reportFormats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "compiler-style diagnostics and a summary line", writeText, kGolden | kComplete},
      {"json", "every finding, input diagnostic and coverage figure", writeJson, kGolden | kComplete},
      {"sarif", "SARIF 2.1.0 for code scanning", writeSarif, kGolden | kComplete},
      {"rdjson", "reviewdog Diagnostic format, one document", writeRdjsonDocument, kGolden},
      {"rdjsonl", "reviewdog Diagnostic format, one diagnostic a line", writeRdjsonLines, kGolden},
      {"junit", "JUnit XML, a testcase per kernel and rule", writeJunit, kGolden | kNeedsApplicability},
      {"github", "GitHub Actions workflow annotations", writeGithub, kGolden},
      {"gitcode", "GitCode pull-request line comments", writeGitcode, kGolden},
      {"markdown", "a pull-request comment within GitHub's size limit", writeMarkdown, kGolden},
      // Checked in headless Chromium (tests/html_report.sh) rather than against a golden file.
      {"html", "one static page (html:DIR writes DIR/index.html)", writeHtml, kComplete | kDirectory},
  };
  return formats;
}

const ReportFormat* findReportFormat(const std::string& name) {
  for (const auto& f : reportFormats())
    if (f.name == name) return &f;
  return nullptr;
}

bool writeReport(const std::string& format, const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  const ReportFormat* f = findReportFormat(format);
  if (!f) return false;
  f->write(result, out, o);
  return true;
}

}  // namespace ptov
