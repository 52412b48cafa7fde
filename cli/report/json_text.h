#pragma once
// JSON text whatever bytes the inputs held: an invalid UTF-8 sequence in a message, a path or a
// quoted source line becomes U+FFFD instead of an exception that loses the whole report.
#include <nlohmann/json.hpp>
#include <string>

namespace ptov {

inline std::string jsonText(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ptov
