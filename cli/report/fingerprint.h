#pragma once
// Finding identity for baselines and SARIF partialFingerprints: the kernel, the rule and the
// fact the message states (pipes, event ids, op names, buffers), with every line and column
// number removed, so a regenerated kernel whose lines moved keeps its fingerprints. Identical
// facts in one kernel are told apart by their order.
#include <vector>

#include "cli/check.h"

namespace ptov {

// Fills Finding::fingerprint for every finding of the result (of one file: identity is per file).
void assignFingerprints(CheckResult& result);
void assignFingerprints(FileResult& file);

// The fact part of a message: digits that follow "line ", ":" or "(line " are dropped.
std::string factOf(const std::string& message);

}  // namespace ptov
