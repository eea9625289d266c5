// Finds where maximal munch can need an unbounded fall-back buffer. After an accepted prefix the
// lexer keeps reading while a longer lexeme is still possible; the bytes read since the last
// accept wait in LexerConfiguration::pending. If, after an accept, the DFA can run around a cycle
// of non-accepting live states, those bytes can grow without bound (a C comment that starts like
// the `/` operator: "/* ..." never accepts until "*/"). The lexer handles this correctly; the
// report exists because it bounds how far back a fall-back can reach, which matters to anything
// that enumerates lexer configurations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

struct UnboundedFallback {
  LabelId accepted;                           // what was accepted before the buffer starts to grow
  std::vector<uint32_t> extending_terminals;  // what the longer lexeme could still become
  std::string example;     // a lexeme: accepted prefix, then bytes that never accept
  size_t accepted_length;  // example[0, accepted_length) is accepted as `accepted`
  size_t cycle_begin;      // example[cycle_begin, size) can repeat any number of times
};

// One report per (accepted label, extending terminals) pair, in state order.
std::vector<UnboundedFallback> find_unbounded_fallbacks(const LexerDfa& dfa);

// One line for messages, e.g.
//   "after SLASH \"/\", \"/*\" followed by \"\\x00\"* may extend to C_COMMENT without accepting".
std::string describe(const LexerDfa& dfa, const UnboundedFallback& fallback);

}  // namespace glrmask::lexer
