#pragma once
// --witness-dot DIR: each proof finding's witness as a Graphviz lane diagram of its own, one
// lane per pipe (or per lane index for barriers), ops in issue order with their iteration, an
// arrow from each set to the wait it satisfies, the op a lane is stuck at in red and the two
// racing accesses of a race in orange; the graph's label has the finding and the witness values.
#include <string>

#include "cli/check.h"

namespace ptov {

// One finding's graph ("" when its witness has no lanes).
std::string witnessDot(const Finding& f);
// Writes DIR/NNN-RULE-FILE-LINE.dot for every finding with lanes (DIR is created); false, with
// `error` set, when DIR cannot be made or a file cannot be written.
bool writeWitnessDots(const CheckResult& result, const std::string& dir, std::string& error);

}  // namespace ptov
