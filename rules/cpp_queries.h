#pragma once
// Shared queries of the C++ rules (barrier-*, abi-order, cache-policy-wrapper): the barriers of a
// kernel, and the launch argument a kernel's args[i] is bound to.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/model/model.h"

namespace ptov {

// The all-core barriers of a kernel, in program order.
std::vector<const Op*> barriersOf(const Kernel& k);
bool isSoftBarrier(const Op& op);
// The barriers of a kernel grouped by the counter they count on (mode, core type, workspace
// buffer and offset): the arrivals of one barrier, in program order of their first arrival.
std::vector<std::vector<const Op*>> barrierCounters(const Kernel& k);
// Where a reader finds a barrier: the call of the inlined helper that holds it, else the op.
SourceLoc siteOf(const Op& barrier);
// "workspace args[12] + 16", or "" for a barrier without a workspace.
std::string counterText(const Op& barrier);

// The tensor a launch passes as args[index] (tensors are added first, in order), or null.
const LaunchArg* launchArgAt(const LaunchFacts& l, int64_t index);

// The args[i] index of a buffer the C++ front end names "args[12]", if it is one.
std::optional<int64_t> argsIndexOf(const std::string& value);

}  // namespace ptov
