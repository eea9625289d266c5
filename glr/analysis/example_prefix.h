// Shortest example inputs for the conflict report: a terminal string after which the LR parser
// sits in a given state with a given item valid for a given lookahead.
//
// The search runs backwards from the goal items over LR(1) item validity: an item
// [A -> α X . β, a] of state q is valid iff [A -> α . X β, a] is valid in a predecessor of q,
// and a closure item [A -> . ω, a] iff some [B -> γ . A δ, b] of q is valid with a in FIRST(δ)
// (then b does not matter) or δ nullable and b = a. It ends at `$accept -> . start $END` in the
// start state. Stepping back over a symbol X costs X's shortest yield, so a shortest-path search
// (A*, bounded below by each state's lookahead-free distance from the start) finds a shortest
// terminal prefix; the prefix is the concatenation of those yields.
//
// A reduction found this way is valid in canonical LR(1) (not only in the merged LALR(1) state),
// so a GLR parser fed the prefix and then the lookahead really reaches the state and the action.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "glr/grammar_sets.h"
#include "glr/ids.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_grammar.h"

namespace glrmask::glr {

struct PrefixGoal {
  StateId state = 0;
  Item item;                       // an item of the state's closure
  SymbolId lookahead = kNoSymbol;  // a terminal the item must be valid for; kNoSymbol: any
};

// Finds shortest prefixes; keeps per-state data between calls, so one finder serves a whole report.
class ExamplePrefixFinder {
 public:
  // The finder keeps references to its arguments.
  ExamplePrefixFinder(const LrGrammar& grammar, const GrammarSets& sets, const Lr0Automaton& lr0);
  ~ExamplePrefixFinder();
  ExamplePrefixFinder(const ExamplePrefixFinder&) = delete;
  ExamplePrefixFinder& operator=(const ExamplePrefixFinder&) = delete;

  // The shortest terminal string reaching any of the goals, or nullopt when none is reachable by
  // a string of at most max_length terminals (unreachable goals, unproductive symbols).
  std::optional<std::vector<SymbolId>> find(std::span<const PrefixGoal> goals,
                                            std::uint64_t max_length = 1000);

 private:
  struct StateIndex;
  const StateIndex& index_of(StateId state);

  const LrGrammar& grammar_;
  const GrammarSets& sets_;
  const Lr0Automaton& lr0_;
  std::vector<std::unique_ptr<StateIndex>> state_index_;
  // Length of a shortest terminal string reaching each state (ignoring lookaheads): a lower bound
  // on the rest of any backward path, which turns the search into A*.
  std::vector<std::uint64_t> distance_from_start_;
};

}  // namespace glrmask::glr
