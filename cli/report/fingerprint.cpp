#include "cli/report/fingerprint.h"

#include "analyzer/hash.h"

#include <cstdio>
#include <map>

namespace ptov {

std::string factOf(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  auto digit = [&](size_t i) { return i < message.size() && std::isdigit(static_cast<unsigned char>(message[i])); };
  for (size_t i = 0; i < message.size(); ++i) {
    char c = message[i];
    // How long a solver ran before it gave up (`Z3 timed out after 1802 ms`: what the kernel's
    // budget had left) is not part of the fact.
    static const std::string kTimedOut = "timed out after ";
    if (digit(i) && i >= kTimedOut.size() && message.compare(i - kTimedOut.size(), kTimedOut.size(), kTimedOut) == 0) {
      while (digit(i + 1)) ++i;
      continue;
    }
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
