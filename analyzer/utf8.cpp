#include "analyzer/utf8.h"

#include <cstdint>
#include <cstdio>

namespace ptov {
namespace {

// Length of the valid UTF-8 sequence at s[pos] and its code point, or 0 if there is none.
size_t decode(std::string_view s, size_t pos, uint32_t& cp) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char b = byte(pos);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || pos + n > s.size()) return 0;
  cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(pos + i) & 0x3F);
  }
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;  // overlong, too big, surrogate
  return n;
}

}  // namespace

std::string validUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t ascii = i;  // a run of ASCII is copied as it is, in one piece
    while (ascii < s.size() && static_cast<unsigned char>(s[ascii]) < 0x80) ++ascii;
    out.append(s.substr(i, ascii - i));
    i = ascii;
    if (i == s.size()) break;
    uint32_t cp = 0;
    size_t n = decode(s, i, cp);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string describeCharacter(std::string_view s, size_t pos, size_t* length) {
  uint32_t cp = 0;
  size_t n = pos < s.size() ? decode(s, pos, cp) : 0;
  if (length) *length = n == 0 ? 1 : n;
  char buf[32];
  if (n == 0) {
    std::snprintf(buf, sizeof buf, "byte 0x%02X", pos < s.size() ? static_cast<unsigned char>(s[pos]) : 0);
    return buf;
  }
  if (cp < 0x20 || cp == 0x7F) {
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
    return buf;
  }
  if (cp < 0x80) return "'" + std::string(1, static_cast<char>(cp)) + "'";
  std::snprintf(buf, sizeof buf, " (U+%04X)", static_cast<unsigned>(cp));
  return "'" + std::string(s.substr(pos, n)) + "'" + buf;
}

}  // namespace ptov
