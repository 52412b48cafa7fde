#include "cli/report/fingerprint.h"

#include "analyzer/hash.h"

#include <cstdio>
#include <map>

namespace ptov {

std::string factOf(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    char c = message[i];
    out += c;
    bool lineRef = c == ':' || (c == ' ' && i >= 4 && message.compare(i - 4, 5, "line ") == 0);
    if (lineRef)
      while (i + 1 < message.size() && std::isdigit(static_cast<unsigned char>(message[i + 1]))) ++i;
  }
  return out;
}

void assignFingerprints(FileResult& file) {
  std::map<std::string, int> seen;
  for (auto& f : file.findings) {
    std::string key = f.kernel + "\n" + f.ruleId + "\n" + factOf(f.message);
    int n = seen[key]++;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(key + "\n" + std::to_string(n))));
    f.fingerprint = hex;
  }
}

void assignFingerprints(CheckResult& result) {
  for (auto& file : result.files) assignFingerprints(file);
}

}  // namespace ptov
