#pragma once
// JSON text whatever bytes the inputs held: an invalid UTF-8 sequence in a message, a path or a
// quoted source line becomes U+FFFD instead of an exception that loses the whole report.
#include <istream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace ptov {

inline std::string jsonText(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// JSON read from an input, nested at most `maxDepth` deep (SARIF needs about a dozen levels).
// Deeper input throws: writing it back recursed once per level, and 200,000 nested arrays in a
// shard's SARIF crashed `merge`.
inline nlohmann::json parseBoundedJson(std::istream& in, int maxDepth = 64) {
  return nlohmann::json::parse(in, [maxDepth](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > maxDepth) throw std::runtime_error("JSON nested more than " + std::to_string(maxDepth) + " deep");
    return true;
  });
}

}  // namespace ptov
