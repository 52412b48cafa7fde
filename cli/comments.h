#pragma once
// Walks the `//` comments of an input (.pto / .mlir; C++ line comments alike), which carry
// corpus expectations and inline suppressions.
#include <sstream>
#include <string>

namespace ptov {

// Calls f(lineNo, commentText, aloneOnItsLine) for each line with a `//` comment; the text
// starts at the `//`.
template <class F>
void forEachLineComment(const std::string& text, F&& f) {
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    auto comment = line.find("//");
    if (comment == std::string::npos) continue;
    f(lineNo, line.substr(comment), line.find_first_not_of(" \t") == comment);
  }
}

}  // namespace ptov
