// The refusal of a grammar with a post-lexer, for the engines that cannot follow one. The lazy
// engine (lazy_walk_engine.h, and through it the staged engine's first stage) feeds a token's
// labels to the parser stacks; with a post-lexer (Python's indenter, glr/indenter.h) the parser's
// terminals also depend on text its lazily built Terminal DWA does not keep (the width of a
// newline's indentation) and on state outside the stacks (the indentation stack, the bracket
// depth), so its masks would be wrong. It refuses such a grammar instead; the wfa and spanner
// engines serve it through indent labels (docs/wfa.md, "Indenter"), the oracle by committing
// every token on a session copy.
#pragma once

#include <memory>
#include <string_view>

#include "glr/compiled_grammar.h"

namespace glrmask::mask {

// Throws glrmask::Error naming `engine` and the post-lexer when the grammar has one.
void refuse_post_lexer(const glr::CompiledGrammar& grammar, std::string_view engine);

// The same, passing the grammar through (for member initializer lists).
std::shared_ptr<const glr::CompiledGrammar> without_post_lexer(
    std::shared_ptr<const glr::CompiledGrammar> grammar, std::string_view engine);

}  // namespace glrmask::mask
