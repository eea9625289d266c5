// Bytes that no lexer state tells apart. The session's viability check (docs/glr.md) asks "is
// there a next byte that ends the current lexeme and lets the text go on?"; bytes of one class
// answer alike, so one representative per class is enough.
#pragma once

#include <cstdint>
#include <vector>

#include "lexer/lexer_dfa.h"

namespace glrmask::glr {

// The smallest byte of every class of bytes whose transitions agree in every DFA state,
// ascending.
std::vector<std::uint8_t> byte_class_representatives(const lexer::LexerDfa& dfa);

}  // namespace glrmask::glr
