#include "cli/source_root.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace ptov {

namespace fs = std::filesystem;

namespace {
fs::path normalAbsolute(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p.empty() ? "." : p, ec);
  a = a.lexically_normal();
  std::string s = a.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// RFC 3986 unreserved characters and '/' stay; every other byte is %XX.
std::string percentEncode(const std::string& p) {
  std::string out;
  for (unsigned char c : p) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}
}  // namespace

std::string findSourceRoot(const std::vector<std::string>& inputs, const std::string& given) {
  if (!given.empty()) return normalAbsolute(given).string();
  if (!inputs.empty()) {
    std::error_code ec;
    fs::path p = normalAbsolute(inputs.front());
    if (!fs::is_directory(p, ec)) p = p.parent_path();
    for (; !p.empty(); p = p.parent_path()) {
      if (fs::exists(p / ".git", ec)) return p.string();  // a directory, or a worktree's .git file
      if (p == p.root_path()) break;
    }
  }
  return normalAbsolute(".").string();
}

std::string pathUnderRoot(const std::string& path, const std::string& root, bool* inside) {
  std::string abs = normalAbsolute(path).string();
  std::string prefix = root == "/" ? "/" : root + "/";
  bool in = abs.rfind(prefix, 0) == 0 && abs.size() > prefix.size();
  if (inside) *inside = in;
  return in ? abs.substr(prefix.size()) : abs;
}

std::string artifactUri(const std::string& path, const std::string& root, bool* inside) {
  bool in = false;
  std::string p = pathUnderRoot(path, root, &in);
  if (inside) *inside = in;
  return in ? percentEncode(p) : "file://" + percentEncode(p);
}

std::string directoryUri(const std::string& dir) {
  std::string p = percentEncode(normalAbsolute(dir).string());
  return "file://" + p + (p.back() == '/' ? "" : "/");
}

}  // namespace ptov
