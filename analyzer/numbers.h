#pragma once
// Integers read from input text, range-checked: a literal that does not fit in 64 bits is no
// number at all (the caller reports it), never an exception or a wrapped value (issue 18).
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptov {

// The digits of `text` as an unsigned 64-bit value: decimal, hexadecimal after 0x/0X, and octal
// after a leading 0 when `octal` (C's reading); nullopt unless the whole text is one number that fits.
inline std::optional<uint64_t> parseMagnitude(std::string_view text, bool octal) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (octal && text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// Decimal, or hexadecimal after 0x/0X, with an optional leading '-'; the whole text must be the
// number. nullopt when it is not one or does not fit in int64_t.
inline std::optional<int64_t> parseInt(std::string_view text) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  auto magnitude = parseMagnitude(text, false);
  if (!magnitude) return std::nullopt;
  if (!negative) {
    if (*magnitude > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(*magnitude);
  }
  if (*magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
  return *magnitude == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(*magnitude);
}

// A C/C++ integer literal without its suffix (decimal, 0x hex, 0 octal), read as its 64-bit
// two's-complement value (`0xFFFFFFFFFFFFFFFF` is -1).
inline std::optional<int64_t> parseUnsignedBits(std::string_view text) {
  auto v = parseMagnitude(text, true);
  if (!v) return std::nullopt;
  return static_cast<int64_t>(*v);
}

}  // namespace ptov
