#pragma once
// The outputs of `ptoverify check --format` (docs/formats.md), registered once in
// reportFormats(): --format's help and validation, the bash completion (`ptoverify formats`), the
// golden test and the docs test all read that table. Text is cli/text_reporter.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/check.h"

namespace ptov {

// GitHub rejects PR comments over 65,536 characters; the runner shows 10 annotations of each
// type (error, warning, notice) per step.
constexpr size_t kMarkdownMaxChars = 65536;
constexpr size_t kGithubAnnotationsPerType = 10;

struct ReportOptions {
  std::string toolVersion = "0.1.0";
  std::string sourceRoot;              // absolute; SARIF URIs are relative to it (%SRCROOT%), cli/source_root.h
  std::string sarifCategory = "ptoverify";  // SARIF automationDetails.id = category + "/"
  std::string informationUri = PTOVERIFY_HOMEPAGE;  // SARIF driver informationUri ("" = none)
  bool baselineApplied = false;        // --baseline: SARIF results carry baselineState
  size_t markdownMaxChars = kMarkdownMaxChars;  // the PR comment's size limit
  // Where the whole report is, for the outputs that must leave findings out.
  std::string fullReportHint = "run 'ptoverify check --format json' for all";
  std::vector<std::string> ruleGlobs;  // the rules that ran (JUnit lists one testcase per kernel x rule)
  std::string helpUriBase;             // SARIF rule helpUri = base + "docs/rules/<id>.md" ("" = none)
  bool color = false;                  // text: ANSI colours
  bool quiet = false;                  // text: findings and input errors only
};

using ReportWriter = void (*)(const CheckResult& result, std::ostream& out, const ReportOptions& o);

// What the CLI and the tests need to know about a format besides its writer.
enum ReportTrait : unsigned {
  kGolden = 1,              // tests/golden_formats.sh compares it with tests/golden/report.<name>
  kComplete = 2,            // every finding: the report the size-limited ones point at
  kDirectory = 4,           // FORMAT:DIR writes DIR/index.html, a page of its own
  kNeedsApplicability = 8,  // each kernel's applicable rules (JUnit: a testcase per rule that applies)
};

struct ReportFormat {
  std::string name;  // what --format takes
  std::string help;  // one line, printed by `ptoverify formats`
  ReportWriter write;
  unsigned traits = 0;  // ReportTrait bits
  bool has(ReportTrait t) const { return (traits & t) != 0; }
};

// Every format --format accepts, text first (the default).
const std::vector<ReportFormat>& reportFormats();
// The format of that name, or null.
const ReportFormat* findReportFormat(const std::string& name);
// Writes `result` in `format`; false for an unknown format.
bool writeReport(const std::string& format, const CheckResult& result, std::ostream& out, const ReportOptions& o);

void writeJson(const CheckResult& result, std::ostream& out, const ReportOptions& o);
void writeSarif(const CheckResult& result, std::ostream& out, const ReportOptions& o);
void writeRdjson(const CheckResult& result, std::ostream& out, bool oneDiagnosticPerLine);
void writeJunit(const CheckResult& result, std::ostream& out, const ReportOptions& o);
void writeGithub(const CheckResult& result, std::ostream& out, const ReportOptions& o);
// GitCode v5 PR line comments: a JSON array of {body, path, position, need_to_resolve}.
void writeGitcode(const CheckResult& result, std::ostream& out, const ReportOptions& o);
void writeMarkdown(const CheckResult& result, std::ostream& out, const ReportOptions& o);
// The static HTML page (`--format html:DIR` writes DIR/index.html).
void writeHtml(const CheckResult& result, std::ostream& out, const ReportOptions& o);
// `ptoverify rules --format json`: id, family, severity, summary, references, doc page.
void printRulesJson(std::ostream& out);


}  // namespace ptov
