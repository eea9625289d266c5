// Turns a range of code points into byte-range sequences that match exactly the UTF-8 encodings
// of the range (the technique of RE2 and Rust's utf8-ranges): the range is split where the
// encoded length changes and where a continuation byte would not cover its full 80..BF span, so
// that each piece is a cross product of byte ranges.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace glrmask::lexer {

// The largest Unicode scalar value and the surrogate block, which has no UTF-8 encoding.
inline constexpr char32_t kMaxCodePoint = 0x10FFFF;
inline constexpr char32_t kSurrogateFirst = 0xD800;
inline constexpr char32_t kSurrogateLast = 0xDFFF;

struct ByteRange {
  uint8_t first;
  uint8_t last;
  bool operator==(const ByteRange&) const = default;
};

struct Utf8Sequence {
  std::array<ByteRange, 4> ranges{};
  uint8_t length = 0;  // 1..4
  bool operator==(const Utf8Sequence&) const = default;
};

// Appends the sequences for [first, last] in increasing order. Surrogates (D800..DFFF) and values
// above 10FFFF are skipped: they have no UTF-8 encoding.
void append_utf8_sequences(char32_t first, char32_t last, std::vector<Utf8Sequence>& out);

// Encodes one scalar value; returns the number of bytes written (0 for a surrogate or a value
// above 10FFFF).
int encode_utf8(char32_t code_point, uint8_t (&bytes)[4]);

}  // namespace glrmask::lexer
