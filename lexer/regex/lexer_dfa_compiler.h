// Compiles a list of terminals into one LexerDfa: Python-regex parse -> Thompson NFA over UTF-8
// bytes -> leftmost-first subset construction -> accept labels by the tie rules -> Hopcroft
// minimization. The semantics are documented in docs/lexer.md.
#pragma once

#include <cstddef>
#include <span>

#include "lexer/runtime/lexer_dfa.h"
#include "lexer/runtime/terminal_spec.h"

namespace glrmask::lexer {

struct LexerDfaLimits {
  size_t max_nfa_states = size_t{1} << 22;
  size_t max_dfa_states = size_t{1} << 18;  // before minimization
};

// Throws glrmask::Error naming the terminal's origin for a bad regex, a terminal that matches
// the empty string, a duplicate name, or an automaton over the limits.
//
// Tie rules for terminals ending on the same lexeme: the highest priority wins; among those a
// terminal defined by a string literal beats patterns; whatever still ties stays in the label.
LexerDfa compile_lexer_dfa(std::span<const TerminalSpec> terminals,
                           const LexerDfaLimits& limits = {});

}  // namespace glrmask::lexer
