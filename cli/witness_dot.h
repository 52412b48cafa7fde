#pragma once
// --witness-dot: the witnesses of proof findings as a Graphviz lane diagram, one lane per pipe
// (or per lane index for barriers), ops in issue order, an arrow from each set to the wait it
// satisfies, and the op a lane is stuck at in red.
#include <ostream>
#include <string>

#include "cli/check.h"

namespace ptov {

void printWitnessDot(const CheckResult& result, std::ostream& out);
bool writeWitnessDot(const CheckResult& result, const std::string& path);

}  // namespace ptov
