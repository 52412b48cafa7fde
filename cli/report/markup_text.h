#pragma once
// Text for XML and HTML (JUnit, the HTML report): valid UTF-8 (invalid sequences become U+FFFD),
// the five markup characters escaped, and control characters XML 1.0 forbids as spaces.
#include <string>

#include "analyzer/utf8.h"

namespace ptov {

inline std::string markupText(const std::string& raw) {
  std::string o;
  for (unsigned char c : validUtf8(raw)) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += static_cast<char>(c);
    }
  }
  return o;
}

}  // namespace ptov
