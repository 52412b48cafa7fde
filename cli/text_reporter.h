#pragma once
#include <iosfwd>

#include "cli/check.h"

namespace ptov {

// Clang-style text: `path:line:col: error: message [rule-id]` then `note:` lines, and a summary
// line. `quiet`: only findings and input errors/warnings (no input notes, no summary).
// summaryOnly: the summary line and input errors, for a run whose reports all go to files.
void printText(const CheckResult& result, std::ostream& out, bool color, bool quiet = false, bool summaryOnly = false);
std::string formatLoc(const SourceLoc& loc);

}  // namespace ptov
