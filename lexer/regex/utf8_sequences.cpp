#include "lexer/regex/utf8_sequences.h"

namespace glrmask::lexer {
namespace {

// Largest code point of each encoded length 1..4.
constexpr char32_t kLengthLimit[] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};

void split(char32_t first, char32_t last, std::vector<Utf8Sequence>& out) {
  if (first > last) return;
  // Surrogates are not scalar values: cut them out.
  if (first <= kSurrogateLast && last >= kSurrogateFirst) {
    if (first < kSurrogateFirst) split(first, kSurrogateFirst - 1, out);
    if (last > kSurrogateLast) split(kSurrogateLast + 1, last, out);
    return;
  }
  // One encoded length per piece.
  for (int length = 0; length < 3; ++length) {
    const char32_t limit = kLengthLimit[length];
    if (first <= limit && last > limit) {
      split(first, limit, out);
      split(limit + 1, last, out);
      return;
    }
  }
  // Within one length, a piece must not mix a partial and a full continuation-byte span: for
  // every suffix of i continuation bytes, either the prefixes agree or the suffixes span fully.
  for (int i = 1; i < 4; ++i) {
    const char32_t mask = (char32_t{1} << (6 * i)) - 1;
    if ((first & ~mask) != (last & ~mask)) {
      if ((first & mask) != 0) {
        split(first, first | mask, out);
        split((first | mask) + 1, last, out);
        return;
      }
      if ((last & mask) != mask) {
        split(first, (last & ~mask) - 1, out);
        split(last & ~mask, last, out);
        return;
      }
    }
  }
  uint8_t low[4];
  uint8_t high[4];
  const int length = encode_utf8(first, low);
  encode_utf8(last, high);
  Utf8Sequence sequence;
  sequence.length = static_cast<uint8_t>(length);
  for (int k = 0; k < length; ++k) sequence.ranges[k] = {low[k], high[k]};
  out.push_back(sequence);
}

}  // namespace

int encode_utf8(char32_t c, uint8_t (&bytes)[4]) {
  if (c > kMaxCodePoint || (c >= kSurrogateFirst && c <= kSurrogateLast)) return 0;
  if (c <= 0x7F) {
    bytes[0] = static_cast<uint8_t>(c);
    return 1;
  }
  if (c <= 0x7FF) {
    bytes[0] = static_cast<uint8_t>(0xC0 | (c >> 6));
    bytes[1] = static_cast<uint8_t>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c <= 0xFFFF) {
    bytes[0] = static_cast<uint8_t>(0xE0 | (c >> 12));
    bytes[1] = static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F));
    bytes[2] = static_cast<uint8_t>(0x80 | (c & 0x3F));
    return 3;
  }
  bytes[0] = static_cast<uint8_t>(0xF0 | (c >> 18));
  bytes[1] = static_cast<uint8_t>(0x80 | ((c >> 12) & 0x3F));
  bytes[2] = static_cast<uint8_t>(0x80 | ((c >> 6) & 0x3F));
  bytes[3] = static_cast<uint8_t>(0x80 | (c & 0x3F));
  return 4;
}

void append_utf8_sequences(char32_t first, char32_t last, std::vector<Utf8Sequence>& out) {
  if (first > kMaxCodePoint) return;
  if (last > kMaxCodePoint) last = kMaxCodePoint;
  split(first, last, out);
}

}  // namespace glrmask::lexer
