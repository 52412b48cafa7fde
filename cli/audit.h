#pragma once
// `ptoverify audit --rule ID... PATH...`: a kernel x rule table of verdicts, Proved (no
// finding), Violated, Unknown (an undecided proof) or N/A (nothing for the rule to check).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/check.h"

namespace ptov {

// Prints the table in `format` (text, json or markdown); returns the exit code.
int runAudit(const CheckRequest& req, const std::string& format, std::ostream& out);

}  // namespace ptov
