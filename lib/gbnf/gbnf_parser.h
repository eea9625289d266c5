// GBNF text -> its syntax tree, with every rule reference resolved.
//
// The format is llama.cpp's (grammars/README.md upstream): `name ::= alternatives`, one rule per
// line unless a newline follows `::=` or `|` or lies inside parentheses; alternatives of
// sequences of string literals, character classes (ranges, `^`), `.`, rule names, groups and
// tokens (`<[id]>`, `<name>`, negated `!<...>`; resolved against a tokenizer only when a
// constraint is compiled), each optionally followed by `*`, `+`, `?`, `{m}`, `{m,}` or `{m,n}`; `#`
// comments. Escapes in literals and classes: `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\t`, `\r`, `\n`,
// `\\`, `\"`, `\[`, `\]`.
//
// Beyond llama.cpp: rule names may contain `_` as well as letters, digits and `-`; a rule defined
// twice is refused (llama.cpp keeps the last definition silently). Refused with a GrammarError
// naming file:line:col: every syntax error, an undefined rule, a repetition count above
// 1,000,000, a token with a blank inside or an id of 2^32 or more.
#pragma once

#include <string>
#include <string_view>

#include "lib/gbnf/gbnf_syntax.h"

namespace glrmask::gbnf {

// `file` names the text in messages. The text must be valid UTF-8 (a GrammarError otherwise).
Grammar parse_gbnf(std::string_view text, const std::string& file);

}  // namespace glrmask::gbnf
