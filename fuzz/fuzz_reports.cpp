// Every report writer on the findings of one file: the JSON-based outputs must parse as JSON
// (valid UTF-8 whatever the input held), the others must not crash.
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/report/fingerprint.h"
#include "cli/report/formats.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ptov;
  CheckResult result;
  result.files.push_back(checkText("fuzz.pto", fuzz::text(data, size), fuzz::request()));
  assignFingerprints(result);
  ReportOptions o;
  o.sourceRoot = "/";
  for (const auto& format : reportFormats()) {
    std::ostringstream out;
    format.write(result, out, o);
    if (format.name == "json" || format.name == "sarif" || format.name == "rdjson") {
      if (!nlohmann::json::accept(out.str())) __builtin_trap();  // a writer broke its format
    }
  }
  return 0;
}
