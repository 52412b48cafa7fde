// --format junit: one <testsuite> per input file and one <testcase> per kernel x rule that ran
// and applies there (a rule with nothing to check in a kernel has no case).
// A case fails when the rule has findings at or above --fail-on in that kernel (the findings
// are the failure's text); findings below it go to <system-out>; an undecided proof with no
// failure makes the case <skipped> with the reason, and so does a rule that was not checked for
// want of facts (no launch linked). An unreadable or unparsable input is an
// <error> case named "input". docs/formats.md.
#include <map>
#include <ostream>
#include <sstream>

#include "cli/report/formats.h"
#include "cli/report/markup_text.h"
#include "analyzer/utf8.h"

namespace ptov {

namespace {
// The finding as its text line (with the review level and fix of timing findings).
std::string line(const Finding& f) {
  return f.loc.file + ":" + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col) + ": " + findingLevel(f) +
         ": " + (f.grade.empty() ? "" : f.grade + ": ") + f.message + (f.fix.empty() ? "" : " (fix: " + f.fix + ")");
}

// Why `rule` could not be decided for `kernel` ("" when it could).
std::string notCheckedWhy(const FileResult& file, const std::string& kernel, const std::string& rule) {
  for (size_t k = 0; k < file.kernelNames.size() && k < file.notChecked.size(); ++k)
    if (file.kernelNames[k] == kernel) {
      auto it = file.notChecked[k].find(rule);
      if (it != file.notChecked[k].end()) return it->second;
    }
  return "";
}

struct Case {
  std::string kernel, rule;
  std::vector<const Finding*> failing, other, unknown;
};
}  // namespace

void writeJunit(const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  std::vector<std::string> rules;
  for (const auto& r : allRules())
    if (ruleEnabled(r->info().id, o.ruleGlobs)) rules.push_back(r->info().id);
  std::ostringstream suites;
  size_t tests = 0, failures = 0, errors = 0;
  for (const auto& file : result.files) {
    // kernel -> rule -> case, in the order kernels appear in the findings and the file.
    std::map<std::string, std::map<std::string, Case>> cases;
    std::vector<std::string> kernels = file.kernelNames;
    for (size_t i = 0; i < kernels.size(); ++i)
      for (const auto& r : rules)
        // A rule with nothing to check in the kernel is no test case (not a pass either).
        if (i >= file.applicableRules.size() || file.applicableRules[i].count(r))
          cases[kernels[i]][r] = Case{kernels[i], r, {}, {}, {}};
    for (const auto& f : file.findings) {
      if (!cases.count(f.kernel)) kernels.push_back(f.kernel);
      Case& c = cases[f.kernel][f.ruleId];
      c.kernel = f.kernel;
      c.rule = f.ruleId;
      if (f.unknown) c.unknown.push_back(&f);
      else if (f.severity >= result.failOn) c.failing.push_back(&f);
      else c.other.push_back(&f);
    }
    std::vector<std::string> inputErrors;
    for (const auto& d : file.inputDiagnostics)
      if (d.level == InputDiagnostic::Level::Error)
        inputErrors.push_back(d.loc.file + ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) +
                              ": error: " + d.message);
    size_t t = 0, fl = 0, er = inputErrors.empty() ? 0 : 1, sk = 0;
    std::ostringstream body;
    if (!inputErrors.empty()) {
      ++t;
      std::string text;
      for (const auto& e : inputErrors) text += e + "\n";
      body << "    <testcase classname=\"" << markupText(file.path) << "\" name=\"input\">\n      <error message=\""
           << markupText(inputErrors.front()) << "\" type=\"input\">" << markupText(text) << "</error>\n    </testcase>\n";
    }
    for (const auto& k : kernels) {
      for (const auto& [rule, c] : cases[k]) {
        ++t;
        body << "    <testcase classname=\"" << markupText(file.path + "." + k) << "\" name=\"" << markupText(rule) << "\"";
        auto why = notCheckedWhy(file, k, rule);
        if (c.failing.empty() && c.unknown.empty() && c.other.empty()) {
          // Not checked is never a pass: the case is skipped with what was missing.
          if (!why.empty()) {
            ++sk;
            body << ">\n      <skipped message=\"" << markupText("not checked: " + why) << "\"/>\n    </testcase>\n";
          } else {
            body << "/>\n";
          }
          continue;
        }
        body << ">\n";
        if (!c.failing.empty()) {
          ++fl;
          std::string text;
          for (const Finding* f : c.failing) text += line(*f) + "\n";
          body << "      <failure message=\"" << markupText(c.failing.front()->message) << "\" type=\""
               << severityName(c.failing.front()->severity) << "\">" << markupText(text) << "</failure>\n";
        } else if (!c.unknown.empty()) {
          ++sk;
          body << "      <skipped message=\"" << markupText(c.unknown.front()->message) << "\"/>\n";
        }
        std::string other;
        for (const Finding* f : c.other) other += line(*f) + "\n";
        if (!c.failing.empty())
          for (const Finding* f : c.unknown) other += line(*f) + "\n";
        if (!other.empty()) body << "      <system-out>" << markupText(other) << "</system-out>\n";
        body << "    </testcase>\n";
      }
    }
    suites << "  <testsuite name=\"" << markupText(file.path) << "\" tests=\"" << t << "\" failures=\"" << fl
           << "\" errors=\"" << er << "\" skipped=\"" << sk << "\">\n"
           << body.str() << "  </testsuite>\n";
    tests += t;
    failures += fl;
    errors += er;
  }
  for (const auto& p : result.problems) {
    ++tests;
    ++errors;
    suites << "  <testsuite name=\"inputs\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
           << "    <testcase classname=\"inputs\" name=\"input\">\n      <error message=\"" << markupText(p)
           << "\" type=\"input\"/>\n    </testcase>\n  </testsuite>\n";
  }
  // The Jenkins xunit plugin's JUnit schema has no `skipped` on <testsuites> (tests/schemas/junit.xsd).
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ptoverify\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\">\n"
      << suites.str() << "</testsuites>\n";
}

}  // namespace ptov
