#pragma once
// Input bytes are not assumed to be ASCII or even UTF-8: every writer passes text through
// validUtf8, and messages about a character name it whole (issue 18).
#include <cstddef>
#include <string>
#include <string_view>

namespace ptov {

// `s` with every invalid UTF-8 sequence (a stray byte, a truncated or overlong sequence, a
// surrogate) replaced by U+FFFD.
std::string validUtf8(std::string_view s);

// The character at `s[pos]` for a message: "'$'", "'é' (U+00E9)", "U+0001" for a control
// character, or "byte 0xFF" when the bytes there are not valid UTF-8. `length` gets the bytes it spans (at least 1).
std::string describeCharacter(std::string_view s, size_t pos, size_t* length = nullptr);

}  // namespace ptov
