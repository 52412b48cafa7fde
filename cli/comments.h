#pragma once
// Walks the `//` comments of an input (.pto / .mlir; C++ line comments alike), which carry
// corpus expectations and inline suppressions.
#include <string>
#include <string_view>

namespace ptov {

// Calls f(lineNo, commentText, aloneOnItsLine) for each line with a `//` comment; the text
// starts at the `//`.
template <class F>
void forEachLineComment(const std::string& text, F&& f) {
  std::string_view rest(text);
  int lineNo = 0;
  while (!rest.empty()) {  // lines as views: copying each line was a few per cent of a .pto run
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    ++lineNo;
    auto comment = line.find("//");
    if (comment == std::string_view::npos) continue;
    f(lineNo, std::string(line.substr(comment)), line.find_first_not_of(" \t") == comment);
  }
}

}  // namespace ptov
