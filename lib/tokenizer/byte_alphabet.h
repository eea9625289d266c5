// The byte <-> character map of byte-level BPE (GPT-2's `bytes_to_unicode`). Byte-level
// vocabularies (Llama-3, Qwen, gpt-oss) write every byte as one printable character: bytes that
// are printable Latin-1 stand for themselves, the other 68 are moved to U+0100..U+0143, so the
// space 0x20 becomes 'Ġ' (U+0120) and the newline 0x0A becomes 'Ċ' (U+010A).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace glrmask::byte_alphabet {

// The character that stands for `byte`.
char32_t char_of_byte(std::uint8_t byte);

// The byte that `c` stands for, or nullopt when `c` is not in the alphabet.
std::optional<std::uint8_t> byte_of_char(char32_t c);

// Appends the bytes that the characters of `text` (UTF-8) stand for to `out`. Returns nullopt,
// or the first character that is not in the alphabet (then `out` holds the bytes before it).
std::optional<char32_t> append_bytes(std::string_view text, std::string& out);

}  // namespace glrmask::byte_alphabet
