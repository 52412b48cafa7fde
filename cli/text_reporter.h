#pragma once
#include <iosfwd>

#include "cli/check.h"

namespace ptov {

// Clang-style text: `path:line:col: error: message [rule-id]` then `note:` lines.
void printText(const CheckResult& result, std::ostream& out, bool color);
std::string formatLoc(const SourceLoc& loc);

}  // namespace ptov
