// The spanner and wfa constructions read a token's terminal sequence from the Terminal DWA and
// run it on the parser stacks. With a post-lexer between lexer and parser (Python's indenter,
// glr/indenter.h) the parser's terminals also depend on text the Terminal DWA does not keep (the
// width of a newline's indentation) and on state outside the stacks (the indentation stack,
// the bracket depth), so their masks would be wrong. They refuse such a grammar instead; the
// oracle engine, which commits every token on a session copy, serves it.
#pragma once

#include <memory>
#include <string_view>

#include "glr/compiled_grammar.h"

namespace glrmask::wfa {

// Throws glrmask::Error naming `engine` and the post-lexer when the grammar has one.
void refuse_post_lexer(const glr::CompiledGrammar& grammar, std::string_view engine);

// The same, passing the grammar through (for member initializer lists).
std::shared_ptr<const glr::CompiledGrammar> without_post_lexer(
    std::shared_ptr<const glr::CompiledGrammar> grammar, std::string_view engine);

}  // namespace glrmask::wfa
