// Dense integer ids shared by every part of the LR machinery.
#pragma once

#include <cstdint>
#include <limits>

#include "lib/grammar/symbol_id.h"

namespace glrmask::glr {

// LR grammar symbols: terminals, the end-of-input marker, then nonterminals (LrGrammar's layout).
using SymbolId = std::uint32_t;
// A symbol in the grammar model's numbering, which Cfg keeps; a distinct type, since its
// nonterminals are one below the LR grammar's (LrGrammar::from_cfg_symbol converts).
using GrammarSymbolId = glrmask::SymbolId;
// Index into a grammar's rule list.
using RuleId = std::uint32_t;
// LR automaton state; state 0 is the start state.
using StateId = std::uint32_t;

inline constexpr SymbolId kNoSymbol = std::numeric_limits<SymbolId>::max();
inline constexpr StateId kNoState = std::numeric_limits<StateId>::max();
inline constexpr GrammarSymbolId kNoGrammarSymbol{std::numeric_limits<std::uint32_t>::max()};

// Terminals keep their ids from the grammar model through the lexer into the LR grammar (whose
// end-of-input marker comes after them); only nonterminals move (LrGrammar::from_cfg_symbol).
// These two convert a symbol the caller knows to be a terminal.
constexpr SymbolId lr_terminal(GrammarSymbolId terminal) {
  return terminal.value();
}
constexpr GrammarSymbolId grammar_terminal(SymbolId terminal) {
  return GrammarSymbolId{terminal};
}

}  // namespace glrmask::glr
