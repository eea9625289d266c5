// Character classes that the pre-tokenizer patterns of HuggingFace tokenizers use (\p{L}, \p{Lu},
// \p{N}, \p{M}, \s, ...), with the meaning JavaScript's `u`-flag regular expressions give them:
// the reference tokenizer implementation runs those patterns in JavaScript. General categories
// come from ICU.
#pragma once

#include <cstdint>

namespace glrmask::unicode {

// One bit per class; a code point's classes are OR-ed together.
enum CharClass : std::uint16_t {
  kLu = 1 << 0,     // uppercase letter
  kLl = 1 << 1,     // lowercase letter
  kLt = 1 << 2,     // titlecase letter
  kLm = 1 << 3,     // modifier letter
  kLo = 1 << 4,     // other letter
  kM = 1 << 5,      // mark (Mn, Mc, Me)
  kN = 1 << 6,      // number (Nd, Nl, No)
  kSpace = 1 << 7,  // JavaScript \s: WhiteSpace (incl. every Zs) and LineTerminator
  kCrLf = 1 << 8,   // '\r' or '\n'
  kL = kLu | kLl | kLt | kLm | kLo,
};

// The classes of code point `c`. Code points of the Basic Multilingual Plane come from a table
// built once on first use; the others ask ICU.
std::uint16_t char_classes(char32_t c);

inline bool is_letter(char32_t c) {
  return (char_classes(c) & kL) != 0;
}
inline bool is_number(char32_t c) {
  return (char_classes(c) & kN) != 0;
}
inline bool is_js_space(char32_t c) {
  return (char_classes(c) & kSpace) != 0;
}

}  // namespace glrmask::unicode
