// Canonical LR(1) on top of the LR(0) automaton, used to tell the conflicts that LALR(1)'s state
// merging creates apart from those of the grammar itself.
//
// Every canonical LR(1) state has an LR(0) state as its core, and its transitions follow the
// core's, so a canonical state is just (core, lookahead set of each kernel item). It is built
// breadth-first from the start state until `max_states` is exceeded, which bounds the cost on large
// grammars (canonical LR(1) can be exponentially larger than LALR(1)).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "glr/grammar_sets.h"
#include "glr/ids.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_grammar.h"

namespace glrmask::glr {

struct CanonicalLr1Summary {
  std::uint32_t num_states = 0;
  // (core state, terminal) cells where some canonical state with that core can reduce by two or
  // more rules: the reduce/reduce conflicts LALR(1) would have without merging. Sorted.
  std::vector<std::pair<StateId, SymbolId>> reduce_reduce_cells;

  bool has_reduce_reduce(StateId core, SymbolId terminal) const;
};

// nullopt when the canonical automaton has more than max_states states.
std::optional<CanonicalLr1Summary> analyze_canonical_lr1(const LrGrammar& grammar,
                                                         const GrammarSets& sets,
                                                         const Lr0Automaton& lr0,
                                                         std::uint32_t max_states);

}  // namespace glrmask::glr
