#include "cli/report/sarif_limits.h"

#include <zlib.h>

#include <algorithm>

#include "cli/report/json_text.h"

namespace ptov {

size_t gzipSize(const std::string& text) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer, as an uploaded .sarif.gz has.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return text.size();
  std::string buf(1 << 16, '\0');
  size_t total = 0;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());  // SARIF logs stay far below 4 GB (capped at 25,000 results)
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buf.data());
    z.avail_out = static_cast<uInt>(buf.size());
    status = deflate(&z, Z_FINISH);
    if (status == Z_STREAM_ERROR) break;
    total += buf.size() - z.avail_out;
  }
  deflateEnd(&z);
  return total;
}

namespace {
void addCapNotice(nlohmann::json& run, size_t kept, size_t total) {
  run["invocations"][0]["toolExecutionNotifications"].push_back(
      {{"level", "warning"},
       {"message", {{"text", "results capped at " + std::to_string(kept) + " of " + std::to_string(total) +
                                 " to stay within GitHub's limits (25,000 results, 10 MB compressed); use --format "
                                 "json for all"}}}});
}
}  // namespace

void capSarifResults(nlohmann::json& doc, size_t maxGzipBytes) {
  if (!doc.is_object() || !doc["runs"].is_array() || doc["runs"].empty()) return;
  nlohmann::json& run = doc["runs"][0];
  if (!run["results"].is_array() || !run["invocations"].is_array() || run["invocations"].empty()) return;
  const size_t total = run["results"].size();
  // The log as it would be written with the first n results (and the notice when n < total).
  auto capped = [&](size_t n) {
    nlohmann::json trial = doc;
    auto& r = trial["runs"][0]["results"];
    r.erase(r.begin() + static_cast<long>(n), r.end());
    if (n < total) addCapNotice(trial["runs"][0], n, total);
    return trial;
  };
  auto fits = [&](size_t n) { return gzipSize(jsonText(capped(n), 2)) <= maxGzipBytes; };
  size_t keep = std::min(total, kSarifMaxResults);
  // The largest prefix that fits, by bisection (each try compresses the whole log once).
  if (!fits(keep)) {
    size_t lo = 0, hi = keep;  // fits(lo) is assumed: the log without results is far below the cap
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      (fits(mid) ? lo : hi) = mid;
    }
    keep = lo;
  }
  if (keep < total) doc = capped(keep);
}

}  // namespace ptov
