// Bytes that no lexer state tells apart. Analyses that ask "which next byte ends the current
// lexeme?" or "which forks can the lexer reach?" need to try one representative per class only:
// bytes of one class move every DFA state to the same state.
#pragma once

#include <cstdint>
#include <vector>

#include "lexer/lexer_dfa.h"

namespace glrmask::lexer {

// The smallest byte of every class of bytes whose transitions agree in every DFA state,
// ascending.
std::vector<std::uint8_t> byte_class_representatives(const LexerDfa& dfa);

}  // namespace glrmask::lexer
