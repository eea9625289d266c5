// The fewest bytes of text that take the LR(0) automaton from its start state to each state:
// Dijkstra over the transitions, each weighted by the shortest yield of its symbol
// (GrammarSets::shortest_yield_length). The counterexample search (example_prefix.h) and the
// stack witnesses of the conflict report (stack_witness.h) both start from these distances.
#pragma once

#include <cstdint>
#include <vector>

#include "glr/grammar_sets.h"
#include "glr/ids.h"
#include "glr/lr0_automaton.h"

namespace glrmask::glr {

struct YieldDistances {
  // GrammarSets::kUnproductive where no text reaches the state.
  std::vector<std::uint64_t> distance;
  // The state before it on one shortest path (kNoState for the start state and the unreached).
  std::vector<StateId> parent;
};

YieldDistances yield_distances_from_start(const Lr0Automaton& lr0, const GrammarSets& sets);

}  // namespace glrmask::glr
