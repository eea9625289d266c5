// Which JSON spellings of a character a constrained string accepts (lib/json_schema/regex.h).
#pragma once

#include <cstdint>

namespace glrmask::json_schema {

enum class StringSpellings : std::uint8_t {
  // What JSON encoders write: a printable ASCII character (U+0020 to U+007E) as itself (`"` and
  // `\` as \" and \\, `/` also as \/), every other character as itself where JSON allows, as its
  // short escape (\b \f \n \r \t), and as \uXXXX in either case or a surrogate pair. Refuses only
  // printable ASCII written as \uXXXX (\u0061 for a), which no common encoder writes; the lexer
  // then needs no escape path beside every ASCII character of a key, constant or pattern.
  kEncoders,
  // Every spelling JSON allows, printable ASCII as \uXXXX too: exact, and a lexer with several
  // states more per character position of every key, constant and pattern.
  kEvery,
};

}  // namespace glrmask::json_schema
