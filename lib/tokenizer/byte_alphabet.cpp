#include "lib/tokenizer/byte_alphabet.h"

#include <array>

#include "lib/core/unicode_utf8.h"

namespace glrmask::byte_alphabet {
namespace {

// Printable bytes keep their Latin-1 character; the rest are numbered from U+0100 in byte order.
constexpr bool is_kept(unsigned b) {
  return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

constexpr std::array<char32_t, 256> make_chars() {
  std::array<char32_t, 256> chars{};
  char32_t next_moved = 0x100;
  for (unsigned b = 0; b < 256; ++b) chars[b] = is_kept(b) ? char32_t{b} : next_moved++;
  return chars;
}

constexpr std::array<char32_t, 256> kCharOfByte = make_chars();

// The alphabet lies in U+0021..U+0143, so the inverse is a small table (-1: not in the alphabet).
constexpr char32_t kInverseSize = 0x144;
constexpr std::array<std::int16_t, kInverseSize> make_inverse() {
  std::array<std::int16_t, kInverseSize> inverse{};
  for (auto& entry : inverse) entry = -1;
  for (unsigned b = 0; b < 256; ++b) inverse[kCharOfByte[b]] = static_cast<std::int16_t>(b);
  return inverse;
}

constexpr std::array<std::int16_t, kInverseSize> kByteOfChar = make_inverse();

static_assert(kCharOfByte[' '] == 0x120 && kCharOfByte['\n'] == 0x10A && kCharOfByte['a'] == 'a');

}  // namespace

char32_t char_of_byte(std::uint8_t byte) {
  return kCharOfByte[byte];
}

std::optional<std::uint8_t> byte_of_char(char32_t c) {
  if (c >= kInverseSize || kByteOfChar[c] < 0) return std::nullopt;
  return static_cast<std::uint8_t>(kByteOfChar[c]);
}

std::optional<char32_t> append_bytes(std::string_view text, std::string& out) {
  // A character is at least one byte of `text` and stands for one byte: room for all of them
  // first, written through a pointer, trimmed at the end.
  const std::size_t start = out.size();
  out.resize(start + text.size());
  char* const first = out.data();
  char* next = first + start;
  std::optional<char32_t> outside;
  for (std::size_t pos = 0; pos < text.size();) {
    // Printable ASCII stands for itself, and most of a vocabulary's characters are such: no
    // UTF-8 decoding for them (loading a tokenizer converts every token and both parts of every
    // merge).
    if (const char c = text[pos]; c >= '!' && c <= '~') {
      *next++ = c;
      ++pos;
      continue;
    }
    const char32_t c = decode_utf8(text, pos);
    const std::optional<std::uint8_t> byte = byte_of_char(c);
    if (!byte) {
      outside = c;
      break;
    }
    *next++ = static_cast<char>(*byte);
  }
  out.resize(static_cast<std::size_t>(next - first));
  return outside;
}

}  // namespace glrmask::byte_alphabet
