#pragma once
// Inline expectations (Clang -verify style) and the corpus runner behind `ptoverify corpus`.
//   // expect-error@+1 {{rule-id}}     a finding of that rule and severity on the next line
//   // expect-warning {{rule-id}}      ... on this same line (trailing comment)
//   // expect-note@-2 {{rule-id}}      ... two lines above
//   // expect-error@+1 {{input}}       an input (syntax) error on the next line
//   // expect-unknown {{rule-id}}      an undecided proof (could not prove ...) on this line
//   // expect-error {{rule-id}} witness {{%n = 2, block_idx = 0}}
//                                      ... whose witness has (at least) these values
//   // expect-no-findings              the file must produce nothing
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/check.h"

namespace ptov {

struct Expectation {
  int line = 0;          // the line the finding must be on
  std::string severity;  // error, warning, note
  std::string ruleId;    // or "input"
  int writtenAt = 0;     // the line of the comment
  std::vector<std::pair<std::string, int64_t>> witness;  // values the witness must contain
};

struct ExpectationSet {
  std::vector<Expectation> expected;
  bool noFindings = false;
  std::vector<std::string> syntaxProblems;  // malformed expect- comments
};

ExpectationSet parseExpectations(const std::string& text);

struct CorpusFileResult {
  std::string path;
  std::vector<std::string> failures;  // "file:line: ..." lines
  bool passed() const { return failures.empty(); }
};

CorpusFileResult verifyFile(const std::string& path, const CheckRequest& req);

// Runs every file under `paths`; prints failures and a closing "N passed, N failed" line.
// Returns 0 when every file meets its expectations, 1 otherwise, 2 on missing inputs.
int runCorpus(const std::vector<std::string>& paths, const CheckRequest& req, bool report, std::ostream& out);

}  // namespace ptov
