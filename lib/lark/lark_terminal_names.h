// The names Lark gives terminals written inline in rules, reproduced so that terminal names (in
// messages, in the printed grammar, in comparisons with Lark) match Lark's.
#pragma once

#include <string>
#include <string_view>

namespace glrmask::lark {

// Lark's preferred name for the anonymous literal `literal`: a fixed name for common punctuation
// ("(" is LPAR, "+" is PLUS, "\n" is NEWLINE), the upper-cased literal for an identifier-like
// literal ("if" is IF, "dense_rank" is DENSE_RANK; Unicode letters count, as in Python
// identifiers), and "" otherwise. The caller falls back to __ANON_n when the name is "" or taken.
std::string preferred_literal_name(std::string_view literal);

}  // namespace glrmask::lark
