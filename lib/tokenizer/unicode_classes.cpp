#include "lib/tokenizer/unicode_classes.h"

#include <unicode/uchar.h>

#include <memory>

namespace glrmask::unicode {
namespace {

// JavaScript's \s (ECMA-262 WhiteSpace + LineTerminator): TAB, VT, FF, ZWNBSP, every Zs, and
// LF, CR, LS, PS. Unlike Rust's or Python's \s it does not contain U+0085 or U+180E.
bool is_js_whitespace(char32_t c) {
  switch (c) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0xFEFF:
    case 0x2028:
    case 0x2029:
      return true;
    default:
      return u_charType(static_cast<UChar32>(c)) == U_SPACE_SEPARATOR;
  }
}

std::uint16_t classify(char32_t c) {
  std::uint16_t classes = 0;
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_UPPERCASE_LETTER:
      classes = kLu;
      break;
    case U_LOWERCASE_LETTER:
      classes = kLl;
      break;
    case U_TITLECASE_LETTER:
      classes = kLt;
      break;
    case U_MODIFIER_LETTER:
      classes = kLm;
      break;
    case U_OTHER_LETTER:
      classes = kLo;
      break;
    case U_NON_SPACING_MARK:
    case U_COMBINING_SPACING_MARK:
    case U_ENCLOSING_MARK:
      classes = kM;
      break;
    case U_DECIMAL_DIGIT_NUMBER:
    case U_LETTER_NUMBER:
    case U_OTHER_NUMBER:
      classes = kN;
      break;
    default:
      break;
  }
  if (is_js_whitespace(c)) classes |= kSpace;
  if (c == '\r' || c == '\n') classes |= kCrLf;
  return classes;
}

struct BmpTable {
  std::unique_ptr<std::uint16_t[]> classes{new std::uint16_t[0x10000]};
  BmpTable() {
    for (char32_t c = 0; c < 0x10000; ++c) classes[c] = classify(c);
  }
};

}  // namespace

std::uint16_t char_classes(char32_t c) {
  // The pre-tokenizers ask for every code point of the text, so the common case is one load.
  static const BmpTable table;
  return c < 0x10000 ? table.classes[c] : classify(c);
}

}  // namespace glrmask::unicode
