#include "cli/report/fingerprint.h"

#include <cstdio>
#include <map>

namespace ptov {

std::string factOf(const std::string& message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    out += message[i];
    bool lineRef = (i >= 4 && message.compare(i - 4, 5, "line ") == 0) || message[i] == ':';
    if (lineRef)
      while (i + 1 < message.size() && std::isdigit(static_cast<unsigned char>(message[i + 1]))) ++i;
  }
  return out;
}

namespace {
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}
}  // namespace

void assignFingerprints(CheckResult& result) {
  for (auto& file : result.files) {
    std::map<std::string, int> seen;
    for (auto& f : file.findings) {
      std::string key = f.kernel + "\n" + f.ruleId + "\n" + factOf(f.message);
      int n = seen[key]++;
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(key + "\n" + std::to_string(n))));
      f.fingerprint = hex;
    }
  }
}

}  // namespace ptov
