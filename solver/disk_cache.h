#pragma once
// The solver's answers on disk (--cache-dir), so a CI job that re-checks an unchanged kernel
// asks Z3 nothing even in a new process. One small JSON file per query, named by two
// independent 64-bit hashes of the query key; written to a temporary name and renamed, so
// parallel runs (-j, or concurrent jobs sharing the directory) never read half a file.
#include <optional>
#include <string>

#include "solver/solver.h"

namespace ptov {

// Each entry holds the full key, the answer and a checksum over both. An entry whose key
// differs, whose checksum fails, that is malformed, or whose number of values is not
// `valueCount` (0 when unsatisfiable) is not trusted: nullopt, and `rejected` (when given) is set.
std::optional<SatAnswer> readCachedAnswer(const std::string& dir, const std::string& key, size_t valueCount,
                                          bool* rejected = nullptr);
void writeCachedAnswer(const std::string& dir, const std::string& key, const SatAnswer& answer);

}  // namespace ptov
