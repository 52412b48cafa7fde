#pragma once
// Helpers shared by the timing rules (seed 003): matching configured names against functions and calls.
#include <string>
#include <vector>

#include "analyzer/model/machine_facts.h"

namespace ptov {

// Does a glob match the function, by its qualified (`AicoreHal::ResetShakeBuf`) or plain name?
bool functionMatches(const std::vector<std::string>& globs, const std::string& qualifiedName);
// Does a glob match the call's callee or the macro it was written with?
bool callMatches(const std::vector<std::string>& globs, const ControlNode& call);
// "a", "a and b", "a, b and c".
std::string joinWithAnd(const std::vector<std::string>& items);
// The first name of a list, for fix texts ("" when empty).
std::string firstName(const std::vector<std::string>& names, const std::string& fallback);

}  // namespace ptov
