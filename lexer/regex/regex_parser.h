// Parser for the Python `re` dialect that Lark terminals are written in (str patterns, Python 3
// semantics). Everything a lexer can support is accepted; the rest (anchors, lookaround,
// backreferences, conditionals, atomic groups, possessive quantifiers) is rejected with an error
// that names the construct and its column.
#pragma once

#include <string_view>

#include "lexer/regex/regex_ast.h"

namespace glrmask::lexer {

// Parses `pattern` under the whole-pattern `flags` (any of "imsx", plus "a" for ASCII-only
// classes and "u" which is the default). `origin` starts every error message:
//   "<origin>: regex column N: <message> in /<pattern>/"   (N counts code points from 1).
// Throws glrmask::Error.
Regex parse_regex(std::string_view pattern, std::string_view flags, std::string_view origin);

}  // namespace glrmask::lexer
