// Dense integer ids shared by every part of the LR machinery.
#pragma once

#include <cstdint>
#include <limits>

namespace glrmask::glr {

// Grammar symbols: terminals first, then nonterminals (see Cfg and LrGrammar for the layout).
using SymbolId = std::uint32_t;
// Index into a grammar's rule list.
using RuleId = std::uint32_t;
// LR automaton state; state 0 is the start state.
using StateId = std::uint32_t;

inline constexpr SymbolId kNoSymbol = std::numeric_limits<SymbolId>::max();
inline constexpr StateId kNoState = std::numeric_limits<StateId>::max();

}  // namespace glrmask::glr
