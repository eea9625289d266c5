// Where maximal munch could read a sentence differently from the grammar.
//
// The lexer takes the longest lexeme (docs/lexer.md). A grammar whose terminals were chosen for a
// scannerless format (GBNF, lib/gbnf) says nothing about that rule: after a lexeme t of terminal
// T, what follows in a sentence may begin like the continuation of a longer lexeme, and then the
// lexer reads t·w as one token where the grammar wanted t and then w. This analysis finds every
// such place, on the lexer's DFA and the grammar's FOLLOW sets: a DFA state s accepting T, and a
// text w such that s·w accepts again while w is also the beginning of what can follow T, lexeme by
// lexeme (the followers of T, then the followers of the follower once its lexeme may end, ...).
// It is conservative: FOLLOW sets ignore the parse context, and a search over its budget counts as
// a cut. No cut means: every sentence of the grammar is lexed into the lexemes its derivation
// has, so lexer + parser accept exactly the grammar's language.
#pragma once

#include <cstdint>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::lexer {

struct MunchCut {
  uint32_t accepted;             // T: the terminal whose lexeme could be cut short
  std::vector<uint32_t> longer;  // the terminals of the longer lexeme the lexer would take
};

// `dfa` must be the lexer of `grammar`'s terminals (terminal i = DFA terminal i). At most one cut
// per (accepted, longer) pair, in state order.
std::vector<MunchCut> find_munch_cuts(const GrammarModel& grammar, const LexerDfa& dfa);

}  // namespace glrmask::lexer
