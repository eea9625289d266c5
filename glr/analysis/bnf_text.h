// Reads a grammar written in plain BNF text: the subset of Lark's syntax without EBNF, so the same
// file can be given to Lark (the reference in tests) and to the LR builder.
//
//   // comment (also '#')
//   %start name              optional; the default start is the first rule's left-hand side
//   name: alt | alt          alternatives of space-separated symbols; an empty one derives nothing
//       | alt                continuation line of the previous rule
//   name.3: alt              rule priority 3 for every alternative of this definition
//   NAME: anything           a terminal definition (uppercase name): its pattern is not read
//   %ignore ... / %import …  other directives are skipped
//
// A symbol is a nonterminal when it has a lowercase letter ("expr", "_item", "__start_star_0"),
// a terminal when all its letters are uppercase ("NAME", "__ANON_0", "_NL"), as in Lark; a quoted
// literal ("=") is a terminal named by its quoted text. Terminal ids follow first use.
#pragma once

#include <string_view>

#include "glr/cfg.h"

namespace glrmask::glr {

// Throws glrmask::Error naming source_name:line:col for malformed text, EBNF operators, regex
// literals, an undefined nonterminal or an empty grammar.
Cfg parse_bnf(std::string_view text, std::string_view source_name);

}  // namespace glrmask::glr
