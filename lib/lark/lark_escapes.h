// The text of Lark literals, both ways: decoding a "string" or /regexp/ token the way Lark 1.1.5
// does, and writing a value back as Lark text or as a Python `re` pattern.
//
// Lark's escapes, in strings and regexps alike:
//   \n \t \r \f        the control character
//   \xHH \uHHHH \UHHHHHHHH   the code point (written as UTF-8)
//   \"                 a double quote
//   \\                 in a string: one backslash; in a regexp: stays \\ (an escaped backslash)
//   \/                 in a regexp: a slash (Lark keeps the backslash; `re` reads both the same)
//   \c (any other c)   stays as the two characters \c (in a string too: "\d" is backslash, d)
// So "\true" is TAB followed by "rue", which is what Lark makes of it.
#pragma once

#include <string>
#include <string_view>

#include "lib/lark/lark_syntax.h"

namespace glrmask::lark {

struct DecodedLiteral {
  std::string value;  // string contents, or the regex, UTF-8
  std::string flags;  // sorted, without duplicates
  bool is_regexp = false;
};

// `raw` is a whole token ("..."i or /.../flags) found at `pos` of `file`. Throws GrammarError at
// the offending escape for a malformed \x, \u or \U, and at the token for an empty literal or the
// unsupported regexp flag `l`.
DecodedLiteral decode_literal(std::string_view raw, TextPos pos, const std::string& file);

// Python `re` syntax for exactly the string `literal`: metacharacters are escaped; everything else,
// control characters and non-ASCII UTF-8 included, stays as it is. Patterns thus hold control
// characters raw, as Lark's decoded /regexps/ do, so printing and reading back changes nothing.
std::string regex_escape(std::string_view literal);

// `literal` as one character of a regex character class ([...]).
std::string regex_class_escape(std::string_view character);

// Lark source text that decodes back to the same value.
std::string lark_string_text(std::string_view literal, std::string_view flags);
std::string lark_regexp_text(std::string_view pattern, std::string_view flags);

// True when `regex` has a `|` outside every group and class, so that concatenating it with
// something else needs a (?:...) around it.
bool has_top_level_alternation(std::string_view regex);

}  // namespace glrmask::lark
