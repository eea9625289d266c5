#include "lib/lark/lark_terminal_names.h"

#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <utility>

namespace glrmask::lark {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 36> kPunctuationNames = {{
    {".", "DOT"},        {",", "COMMA"},     {":", "COLON"},      {";", "SEMICOLON"},
    {"+", "PLUS"},       {"-", "MINUS"},     {"*", "STAR"},       {"/", "SLASH"},
    {"\\", "BACKSLASH"}, {"|", "VBAR"},      {"?", "QMARK"},      {"!", "BANG"},
    {"@", "AT"},         {"#", "HASH"},      {"$", "DOLLAR"},     {"%", "PERCENT"},
    {"^", "CIRCUMFLEX"}, {"&", "AMPERSAND"}, {"_", "UNDERSCORE"}, {"<", "LESSTHAN"},
    {">", "MORETHAN"},   {"=", "EQUAL"},     {"\"", "DBLQUOTE"},  {"'", "QUOTE"},
    {"`", "BACKQUOTE"},  {"~", "TILDE"},     {"(", "LPAR"},       {")", "RPAR"},
    {"{", "LBRACE"},     {"}", "RBRACE"},    {"[", "LSQB"},       {"]", "RSQB"},
    {"\n", "NEWLINE"},   {"\r\n", "CRLF"},   {"\t", "TAB"},       {" ", "SPACE"},
}};

// Python's identifier classes as Lark approximates them: letters, marks and connector punctuation
// start an identifier; decimal and letter numbers may continue one.
bool is_identifier_start(UChar32 c) {
  if (c == '_') return true;
  switch (u_charType(c)) {
    case U_UPPERCASE_LETTER:
    case U_LOWERCASE_LETTER:
    case U_TITLECASE_LETTER:
    case U_MODIFIER_LETTER:
    case U_OTHER_LETTER:
    case U_NON_SPACING_MARK:
    case U_COMBINING_SPACING_MARK:
    case U_CONNECTOR_PUNCTUATION:
      return true;
    default:
      return false;
  }
}

bool is_identifier_continue(UChar32 c) {
  const auto type = u_charType(c);
  return is_identifier_start(c) || type == U_DECIMAL_DIGIT_NUMBER || type == U_LETTER_NUMBER;
}

}  // namespace

std::string preferred_literal_name(std::string_view literal) {
  for (const auto& [text, name] : kPunctuationNames) {
    if (text == literal) return std::string(name);
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(literal.data());
  const auto length = static_cast<std::int32_t>(literal.size());
  std::int32_t i = 0;
  bool first = true;
  while (i < length) {
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return "";
    if (first ? !is_identifier_start(c) : !is_identifier_continue(c)) return "";
    first = false;
  }
  if (first) return "";
  std::string upper;
  icu::UnicodeString::fromUTF8(icu::StringPiece(literal.data(), length))
      .toUpper(icu::Locale::getRoot())
      .toUTF8String(upper);
  return upper;
}

}  // namespace glrmask::lark
