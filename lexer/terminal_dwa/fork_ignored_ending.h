// Which lexer forks can reach a lexeme boundary while emitting only text the parser may skip (a
// trailing comment or blank after a complete sentence). next_terminals() (fork_next_terminals.h)
// looks through ignored text but lists only terminals, so it cannot say "ignored text, then the
// end of input"; the mask engines need exactly that to allow a token that opens a trailing
// comment.
#pragma once

#include <vector>

#include "lexer/terminal_dwa/terminal_dwa.h"

namespace glrmask::lexer {

// Per fork of `dwa`: 1 when some bytes take it to a fork that can finish (lexer_fork.h
// can_finish) while every label emitted on the way is purely ignored or a tie with an ignored
// alternative. Forks that can finish already are 0: can_finish() decides them directly.
std::vector<char> forks_ending_through_ignored(const TerminalDwa& dwa);

}  // namespace glrmask::lexer
