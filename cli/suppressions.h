#pragma once
// Inline suppressions, in .pto/.mlir `//` comments (and C++ later):
//   // ptoverify: ignore(rule-id[, rule-glob...]) reason      this line, or the next if alone
//   // ptoverify: ignore-begin(rule-id) reason ... // ptoverify: ignore-end(rule-id)
//   // NOLINT(rule-id) reason          // NOLINTNEXTLINE(rule-id) reason      (clang-tidy's forms)
//   // NOLINTBEGIN(rule-id) reason ... // NOLINTEND(rule-id)   (an END closes the BEGIN with its list)
// A suppression without a reason, or one that suppresses nothing, is reported as a note of the
// pseudo-rule `suppression`, so a stale ignore does not linger.
#include <string>

#include "cli/check.h"

namespace ptov {

// Moves the findings of `r` that the comments in `text` suppress to r.hidden (with the
// suppression's reason) and adds the suppression notes.
void applySuppressions(const std::string& text, FileResult& r);

}  // namespace ptov
