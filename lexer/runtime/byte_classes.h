// Bytes that no lexer state tells apart. Analyses that ask "which next byte ends the current
// lexeme?" or "which forks can the lexer reach?" need to try one representative per class only:
// bytes of one class move every DFA state to the same state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

// The smallest byte of every class of bytes whose transitions agree in every DFA state,
// ascending. `candidates` (ascending) must hold the representatives: every byte must share its
// transitions with some candidate no greater than it. The DFA compiler passes one byte per class
// of its subset construction, which no state tells apart, so only those columns are compared
// (a schema's lexer has tens of classes and thousands of states).
std::vector<std::uint8_t> byte_class_representatives(const LexerDfa& dfa,
                                                     std::span<const std::uint8_t> candidates);

}  // namespace glrmask::lexer
