#pragma once
// `ptoverify model PATH...`: the kernel model the front ends built, as text. For users asking
// "what did the tool see?" and for tests that pin what a front end models.
#include <iosfwd>
#include <string>
#include <vector>

#include "analyzer/frontend.h"

namespace ptov {

// Prints every kernel of the inputs (after linking) with its ops, loops and branches, and the
// constructs that were not modelled. Returns the exit code (2 on an input error).
int runModelDump(const std::vector<std::string>& paths, const FrontendOptions& opts, std::ostream& out);

}  // namespace ptov
