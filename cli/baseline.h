#pragma once
// Baselines: `ptoverify baseline create -o base.json PATH...` records today's findings by
// fingerprint (kernel + rule + fact, cli/report/fingerprint); `check --baseline base.json`
// then reports only findings the baseline does not have. Lines may move; the fact may not.
#include <string>

#include "cli/check.h"

namespace ptov {

bool writeBaseline(const CheckResult& result, const std::string& path);
// Drops the findings whose fingerprint the baseline has (each baseline entry absorbs one).
// False, with `error` set, when the file cannot be read or is not a baseline.
bool applyBaseline(const std::string& path, CheckResult& result, std::string& error);

}  // namespace ptov
