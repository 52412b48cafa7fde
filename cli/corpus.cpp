#include "cli/corpus.h"

#include "analyzer/numbers.h"
#include "cli/comments.h"

#include <fstream>
#include <array>
#include <map>
#include <ostream>
#include <regex>
#include <sstream>

namespace ptov {

ExpectationSet parseExpectations(const std::string& text) {
  ExpectationSet set;
  static const std::regex kExpect(R"(expect-(error|warning|note|unknown)(@([+-]?)(\d+))?\s*\{\{\s*([A-Za-z0-9_-]+)\s*\}\}(\s*witness\s*\{\{([^}]*)\}\})?)");
  static const std::regex kValue(R"(\s*([%A-Za-z0-9_#.]+)\s*=\s*(-?\d+)\s*)");
  forEachLineComment(text, [&](int lineNo, const std::string& c, bool) {
    if (c.find("expect-no-findings") != std::string::npos) set.noFindings = true;
    bool any = false;
    for (std::sregex_iterator it(c.begin(), c.end(), kExpect), end; it != end; ++it) {
      any = true;
      const auto& m = *it;
      Expectation e;
      e.writtenAt = lineNo;
      e.severity = m[1];
      e.ruleId = m[5];
      e.line = lineNo;
      bool wellFormed = true;
      if (m[2].matched) {
        // A line offset no file can have is a malformed expectation, not a crash.
        auto n = parseInt(m[4].str());
        if (!n || *n > 100000000) {
          wellFormed = false;
        } else {
          int k = static_cast<int>(*n);
          if (m[3] == "+") e.line = lineNo + k;
          else if (m[3] == "-") e.line = lineNo - k;
          else e.line = k;
        }
      }
      if (m[6].matched) {
        std::string list = m[7];
        size_t start = 0;
        while (start <= list.size()) {
          size_t comma = list.find(',', start);
          std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          std::smatch v;
          if (std::regex_match(item, v, kValue)) {
            auto x = parseInt(v[2].str());
            if (x) e.witness.emplace_back(v[1], *x);
            else wellFormed = false;  // a value no witness can have
          } else {
            wellFormed = false;
          }
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
      }
      if (wellFormed) set.expected.push_back(e);
      else set.syntaxProblems.push_back(std::to_string(lineNo));
    }
    if (!any && c.find("expect-") != std::string::npos && c.find("expect-no-findings") == std::string::npos)
      set.syntaxProblems.push_back(std::to_string(lineNo));
  });
  return set;
}

namespace {
// The rule a corpus/<rule-id>/good/ file is a good case of; "" for any other file.
std::string goodCaseRule(const std::string& path) {
  auto pos = path.rfind("/good/");
  if (pos == std::string::npos) return "";
  std::string dir = path.substr(0, pos);
  return dir.substr(dir.rfind('/') + 1);  // npos + 1: the whole of a relative "rule-id"
}

// A good case passes only where its rule ran: on some kernel it applied and had the facts to
// decide (audit's Proved, or a finding of it); elsewhere its silence proves nothing. "" when it
// ran, else why not.
std::string whyRuleNeverRan(const FileResult& got, const std::string& rule, const CheckRequest& req) {
  if (!findRule(rule)) return "no rule of this build has that id";
  if (!ruleEnabled(rule, req.ruleGlobs)) return "--rules or the case's configuration disables it";
  std::string notChecked;
  for (size_t i = 0; i < got.kernelNames.size(); ++i) {
    auto why = got.notChecked[i].find(rule);
    if (why != got.notChecked[i].end()) {
      notChecked += (notChecked.empty() ? "" : "; ") + ("@" + got.kernelNames[i] + ": " + why->second);
      continue;
    }
    if (got.applicableRules[i].count(rule)) return "";
  }
  for (const auto& f : got.findings)
    if (f.ruleId == rule) return "";
  if (got.kernelNames.empty()) return "the file has no kernel";
  if (!notChecked.empty()) return "not checked (" + notChecked + ")";
  return "it applies to none of the file's kernels (audit: N/A)";
}
}  // namespace

CorpusFileResult verifyFile(const std::string& path, const CheckRequest& req) {
  CorpusFileResult r;
  r.path = path;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  ExpectationSet exp = parseExpectations(ss.str());
  for (const auto& l : exp.syntaxProblems)
    r.failures.push_back(path + ":" + l + ": malformed expectation (expected expect-<error|warning|note|unknown>[@+N] {{rule-id}})");
  if (exp.expected.empty() && !exp.noFindings) {
    r.failures.push_back(path + ":1: no expectations: add expect-... comments or '// expect-no-findings'");
    return r;
  }
  std::string configError;
  CheckRequest fileReq = requestFor(path, req, configError);  // the case's .ptoverify.yaml, as `check` reads it
  if (!configError.empty()) {
    r.failures.push_back(configError);
    return r;
  }
  const std::string goodOf = goodCaseRule(path);
  fileReq.recordApplicability |= !goodOf.empty();
  FileResult got = checkFile(path, fileReq);
  if (!goodOf.empty()) {
    std::string why = whyRuleNeverRan(got, goodOf, fileReq);
    if (!why.empty())
      r.failures.push_back(path + ":1: a good case of " + goodOf + " that " + goodOf + " never checked: " + why);
  }
  std::vector<bool> used(exp.expected.size(), false);
  auto witnessText = [](const std::vector<std::pair<std::string, int64_t>>& values) {
    std::string t = valuesText(values);
    return t.empty() ? std::string("none") : t;
  };
  auto consume = [&](int line, const std::string& sev, const std::string& rule, const std::string& msg,
                     const Witness* witness) {
    std::string mismatch;
    for (size_t i = 0; i < exp.expected.size(); ++i) {
      const Expectation& e = exp.expected[i];
      if (used[i] || e.line != line || e.severity != sev || e.ruleId != rule) continue;
      bool ok = true;
      for (const auto& want : e.witness) {
        bool found = false;
        if (witness)
          for (const auto& got : witness->values) found |= got == want;
        ok &= found;
      }
      if (!ok) {
        mismatch = "witness {{" + witnessText(e.witness) + "}} expected, got {{" +
                   witnessText(witness ? witness->values : decltype(e.witness){}) + "}}";
        continue;
      }
      used[i] = true;
      return;
    }
    r.failures.push_back(path + ":" + std::to_string(line) + ": unexpected " + sev + " [" + rule + "]: " + msg +
                         (mismatch.empty() ? "" : " (" + mismatch + ")"));
  };
  for (const auto& d : got.inputDiagnostics)
    if (d.level == InputDiagnostic::Level::Error) consume(d.loc.line, "error", "input", d.message, nullptr);
  for (const auto& f : got.findings) consume(f.loc.line, findingLevel(f), f.ruleId, f.message, f.witness.get());
  for (size_t i = 0; i < exp.expected.size(); ++i)
    if (!used[i])
      r.failures.push_back(path + ":" + std::to_string(exp.expected[i].line) + ": expected " + exp.expected[i].severity +
                           " [" + exp.expected[i].ruleId + "] did not come");
  return r;
}

int runCorpus(const std::vector<std::string>& paths, const CheckRequest& req, bool report, std::ostream& out) {
  std::vector<std::string> problems;
  std::vector<std::string> files = collectInputs(paths, problems);
  for (const auto& m : problems) out << m << '\n';
  int passed = 0, failed = 0;
  // rule -> {good files, bad files, failed files}; a file's rule is its corpus/<rule>/ folder.
  std::map<std::string, std::array<int, 3>> perRule;
  for (const auto& f : files) {
    CorpusFileResult r = verifyFile(f, req);
    for (const auto& line : r.failures) out << line << '\n';
    r.passed() ? ++passed : ++failed;
    std::string rule = "(other)", kind;
    if (f.find("/regressions/") != std::string::npos) rule = "regressions";
    for (const char* k : {"/good/", "/bad/"}) {
      auto pos = f.find(k);
      if (pos == std::string::npos) continue;
      kind = k;
      auto start = f.rfind('/', pos - 1);
      rule = f.substr(start + 1, pos - start - 1);
    }
    auto& counts = perRule[rule];
    if (kind == "/good/") ++counts[0];
    else ++counts[1];
    if (!r.passed()) ++counts[2];
  }
  if (report) {
    out << "rule                        good  bad  result\n";
    for (const auto& [rule, c] : perRule) {
      std::string name = rule;
      name.resize(std::max<size_t>(name.size(), 26), ' ');
      out << name << "  " << c[0] << "     " << c[1] << "    " << (c[2] ? "FAIL" : "pass") << '\n';
    }
  }
  out << "corpus: " << passed << " passed, " << failed << " failed\n";
  if (!problems.empty()) return kExitInputError;
  return failed ? 1 : 0;
}

}  // namespace ptov
