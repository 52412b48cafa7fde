#pragma once
// The answers rules get from the solver layer (issue 3 builds the Z3 encodings behind them).
// Unknown is never a pass: reporters show it with its reason, and --strict turns it into exit 3.
#include <string>
#include <vector>

#include "analyzer/source_loc.h"

namespace ptov {

struct WitnessStep {
  SourceLoc loc;
  std::string what;  // "iteration 2 of %i", "takes the else branch", ...
};

struct Verdict {
  enum class Kind { Proved, Violated, Unknown };
  Kind kind = Kind::Unknown;
  std::vector<WitnessStep> witness;  // Violated: the path that breaks the property
  std::string reason;                // Unknown: timeout, unsupported construct, ...
};

}  // namespace ptov
