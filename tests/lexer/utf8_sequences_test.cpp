// UTF-8 range splitting, checked against a plain encoder by brute force: the byte sequences of a
// code point range must accept exactly the encodings of its members and nothing else.
#include "lexer/regex/utf8_sequences.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

namespace glrmask::lexer {
namespace {

bool sequence_matches(const Utf8Sequence& sequence, const uint8_t* bytes, int length) {
  if (sequence.length != length) return false;
  for (int k = 0; k < length; ++k) {
    if (bytes[k] < sequence.ranges[k].first || bytes[k] > sequence.ranges[k].last) return false;
  }
  return true;
}

// Independent reference: the standard bit layout of UTF-8.
int reference_encode(char32_t c, uint8_t (&out)[4]) {
  if (c < 0x80) {
    out[0] = static_cast<uint8_t>(c);
    return 1;
  }
  int length = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  static const uint8_t lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
  for (int k = length - 1; k > 0; --k) {
    out[k] = static_cast<uint8_t>(0x80 | (c & 0x3F));
    c >>= 6;
  }
  out[0] = static_cast<uint8_t>(lead[length] | c);
  return length;
}

bool is_surrogate(char32_t c) {
  return c >= 0xD800 && c <= 0xDFFF;
}

void check_range(char32_t first, char32_t last) {
  INFO("range " << uint32_t{first} << ".." << uint32_t{last});
  std::vector<Utf8Sequence> sequences;
  append_utf8_sequences(first, last, sequences);
  // Every member is matched by exactly one sequence.
  for (char32_t c = first; c <= last; ++c) {
    if (is_surrogate(c)) continue;
    uint8_t bytes[4];
    const int length = reference_encode(c, bytes);
    int matches = 0;
    for (const Utf8Sequence& s : sequences) matches += sequence_matches(s, bytes, length);
    if (matches != 1) {
      FAIL("code point " << uint32_t{c} << " matched by " << matches << " sequences");
    }
  }
  // Every byte string a sequence matches is the encoding of a member (enumerate them all for
  // small sequences; the ranges are cross products).
  for (const Utf8Sequence& s : sequences) {
    size_t count = 1;
    for (int k = 0; k < s.length; ++k) count *= s.ranges[k].last - s.ranges[k].first + 1;
    if (count > 200000) continue;
    std::vector<uint8_t> bytes(s.length);
    for (size_t index = 0; index < count; ++index) {
      size_t rest = index;
      for (int k = s.length; k-- > 0;) {
        const size_t width = s.ranges[k].last - s.ranges[k].first + 1;
        bytes[k] = static_cast<uint8_t>(s.ranges[k].first + rest % width);
        rest /= width;
      }
      // Decode with the reference encoder's inverse: find the code point that encodes so.
      char32_t c = s.length == 1 ? bytes[0] : bytes[0] & (0x7F >> s.length);
      for (int k = 1; k < s.length; ++k) c = (c << 6) | (bytes[k] & 0x3F);
      uint8_t again[4];
      const int length = reference_encode(c, again);
      const bool canonical = length == s.length && std::equal(again, again + length, bytes.begin());
      if (!canonical || c < first || c > last || is_surrogate(c)) {
        FAIL("a sequence accepts bytes that do not encode a member: " << uint32_t{c});
      }
    }
  }
}

TEST_CASE("byte sequences cover exactly the UTF-8 encodings of a range") {
  check_range(0, 0x7F);
  check_range(0x41, 0x5A);
  check_range(0x7F, 0x80);
  check_range(0x80, 0x7FF);
  check_range(0x7FF, 0x800);
  check_range(0x800, 0xFFFF);  // across the surrogate gap
  check_range(0xD7FF, 0xE000);
  check_range(0xFFFF, 0x10000);
  check_range(0x10000, 0x10FFFF);
  check_range(0x1234, 0x1234);
  std::mt19937 random(11);
  for (int i = 0; i < 200; ++i) {
    const auto a = static_cast<char32_t>(random() % 0x110000);
    const auto b = static_cast<char32_t>(random() % 0x110000);
    const char32_t low = std::min(a, b);
    check_range(low, std::min<char32_t>(std::max(a, b), low + 0x3000));
  }
}

TEST_CASE("sequences come out in increasing order and surrogates are left out") {
  std::vector<Utf8Sequence> sequences;
  append_utf8_sequences(0, 0x10FFFF, sequences);
  // The whole Unicode range splits into the canonical well-formed byte patterns (RFC 3629).
  REQUIRE(sequences.size() == 9);
  CHECK(sequences[0] == Utf8Sequence{{{{0x00, 0x7F}}}, 1});
  CHECK(sequences[1] == Utf8Sequence{{{{0xC2, 0xDF}, {0x80, 0xBF}}}, 2});
  CHECK(sequences[2] == Utf8Sequence{{{{0xE0, 0xE0}, {0xA0, 0xBF}, {0x80, 0xBF}}}, 3});
  CHECK(sequences[3] == Utf8Sequence{{{{0xE1, 0xEC}, {0x80, 0xBF}, {0x80, 0xBF}}}, 3});
  CHECK(sequences[4] == Utf8Sequence{{{{0xED, 0xED}, {0x80, 0x9F}, {0x80, 0xBF}}}, 3});
  CHECK(sequences[5] == Utf8Sequence{{{{0xEE, 0xEF}, {0x80, 0xBF}, {0x80, 0xBF}}}, 3});
  CHECK(sequences[6] ==
        Utf8Sequence{{{{0xF0, 0xF0}, {0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}}, 4});
  CHECK(sequences[7] ==
        Utf8Sequence{{{{0xF1, 0xF3}, {0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}}, 4});
  CHECK(sequences[8] ==
        Utf8Sequence{{{{0xF4, 0xF4}, {0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}}}, 4});
  sequences.clear();
  append_utf8_sequences(0xD800, 0xDFFF, sequences);
  CHECK(sequences.empty());
}

TEST_CASE("encode_utf8 agrees with the reference encoder and refuses non-scalars") {
  for (char32_t c = 0; c < 0x110000; c += (c < 0x20000 ? 1 : 97)) {
    uint8_t ours[4];
    uint8_t reference[4];
    const int length = encode_utf8(c, ours);
    if (is_surrogate(c)) {
      CHECK(length == 0);
      continue;
    }
    REQUIRE(length == reference_encode(c, reference));
    REQUIRE(std::equal(ours, ours + length, reference));
  }
  uint8_t bytes[4];
  CHECK(encode_utf8(0x110000, bytes) == 0);
}

}  // namespace
}  // namespace glrmask::lexer
