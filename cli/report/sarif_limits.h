#pragma once
// GitHub code scanning's limits on an uploaded SARIF log, enforced on a whole document by the
// writer and again by `merge` (which can add shards' results past them).
#include <nlohmann/json.hpp>
#include <string>

namespace ptov {

// At most this many results per run.
constexpr size_t kSarifMaxResults = 25000;
// At most this many bytes of the gzip-compressed upload (GitHub limits the compressed size).
constexpr size_t kSarifMaxGzipBytes = 10000000;

// The size of `text` compressed with gzip at the default level.
size_t gzipSize(const std::string& text);

// Drops trailing results of runs[0] until the log is within both limits, and says so in a tool
// notification (how many were kept of how many); `maxGzipBytes` is for tests. Writers put the
// results they would lose last (suppressed, unchanged, absent) at the end.
void capSarifResults(nlohmann::json& doc, size_t maxGzipBytes = kSarifMaxGzipBytes);

}  // namespace ptov
