// glrmask's own definitions of the terminals Lark grammars import with `%import common.NAME`.
//
// They are written from the documented meaning of Lark's `common` library, not read from its
// file, and in a form a DFA lexer takes literally: no lazy quantifiers and no lookaround (Lark's
// ESCAPED_STRING and C_COMMENT rely on both). Where Lark builds a terminal out of others (NUMBER
// from FLOAT and INT), the pattern here is the flattened regular expression of the same language.
#pragma once

#include <span>
#include <string_view>

namespace glrmask::lark {

struct CommonTerminal {
  std::string_view name;
  std::string_view pattern;  // Python `re` syntax
  std::string_view meaning;
};

std::span<const CommonTerminal> common_terminals();

// nullptr when `common` has no terminal of that name.
const CommonTerminal* find_common_terminal(std::string_view name);

}  // namespace glrmask::lark
