// UTF-8 helpers for text that tokenizers read. Validation uses simdjson's SIMD validator; the
// decoder below is for text already known to be valid, so it does no checks of its own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace glrmask {

// The byte offset of the first ill-formed UTF-8 sequence in `text` (overlong forms, surrogates
// and code points above U+10FFFF are ill-formed), or nullopt when `text` is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// Throws glrmask::Error("<what>: invalid UTF-8 at byte offset N", kInvalidArgument, at that byte)
// when `text` is not valid UTF-8.
void require_valid_utf8(std::string_view text, std::string_view what);

// Length in bytes of the UTF-8 sequence that starts with `lead` (1 for a continuation byte, so a
// scan always moves forward).
inline std::size_t utf8_sequence_length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

// Decodes the code point at `text[pos]` of valid UTF-8 and advances `pos` past it.
inline char32_t decode_utf8(std::string_view text, std::size_t& pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  if (lead < 0xE0) {
    const char32_t c = (char32_t{lead} & 0x1F) << 6 | (byte(pos + 1) & 0x3F);
    pos += 2;
    return c;
  }
  if (lead < 0xF0) {
    const char32_t c = (char32_t{lead} & 0x0F) << 12 | char32_t{byte(pos + 1) & 0x3Fu} << 6 |
                       (byte(pos + 2) & 0x3F);
    pos += 3;
    return c;
  }
  const char32_t c = (char32_t{lead} & 0x07) << 18 | char32_t{byte(pos + 1) & 0x3Fu} << 12 |
                     char32_t{byte(pos + 2) & 0x3Fu} << 6 | (byte(pos + 3) & 0x3F);
  pos += 4;
  return c;
}

// Appends the UTF-8 form of `c` (which must be a Unicode scalar value).
void append_utf8(std::string& out, char32_t c);

}  // namespace glrmask
