#pragma once
// Baselines: `ptoverify baseline create -o base.json PATH...` records today's findings by input
// path (relative to the source root, cli/source_root.h) and fingerprint (kernel + rule + fact,
// cli/report/fingerprint); `check --baseline base.json` then reports only findings the baseline
// does not have for that file. Lines may move; the file and the fact may not.
#include <string>

#include "cli/check.h"

namespace ptov {

bool writeBaseline(const CheckResult& result, const std::string& path, const std::string& sourceRoot);
// Moves the findings the baseline has to FileResult::hidden (each baseline entry absorbs one) and
// lists the entries of checked files that nothing matched in CheckResult::absentBaselineFindings.
// Entries of version 1 baselines (no path) match by fingerprint in any file.
// False, with `error` set, when the file cannot be read or is not a baseline.
bool applyBaseline(const std::string& path, CheckResult& result, const std::string& sourceRoot, std::string& error);

}  // namespace ptov
