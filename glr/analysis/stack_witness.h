// Turning LR parser stacks into sentences, for counterexamples: the shortest terminal prefix that
// takes the parser from the start state to a state, the shortest way to complete a stack to
// acceptance, shortest derivation trees of symbols, and the replay of parser actions into a
// parse tree.
//
// All of it reads the LR(0) automaton: every LR(0) item of a state is valid for every stack that
// reaches the state, so a stack is completed by choosing a kernel item [A -> α . β] of its top
// state, deriving β's shortest yield and reducing, until `$accept -> start . $END` remains
// (Dijkstra over (stack length, top state), since reducing never lengthens the known stack).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "glr/analysis/derivation_tree.h"
#include "glr/ids.h"
#include "glr/lalr_automaton.h"

namespace glrmask::glr {

// One parser move as a counterexample replays it: push a shortest derivation of a symbol (for a
// terminal: the terminal; for a nonterminal standing for a stack symbol whose text does not
// matter: its shortest tree), or reduce by a rule.
struct ReplayStep {
  enum class Kind : std::uint8_t { kPush, kReduce };
  Kind kind = Kind::kPush;
  std::uint32_t id = 0;  // the symbol (kPush) or the rule (kReduce)

  static ReplayStep push(SymbolId symbol) { return {Kind::kPush, symbol}; }
  static ReplayStep reduce(RuleId rule) { return {Kind::kReduce, rule}; }
};

class StackWitness {
 public:
  // The automaton must outlive the object.
  explicit StackWitness(const LalrAutomaton& automaton);

  // Length of a shortest terminal string that takes the parser from the start state to `state`
  // (the shortest yields of the accessing symbols along a path), kUnreachable if none.
  static constexpr std::uint64_t kUnreachable = ~std::uint64_t{0};
  std::uint64_t distance(StateId state) const { return distance_[state]; }
  // The states of such a path, state 0 first and `state` last.
  std::vector<StateId> shortest_path(StateId state) const;
  // The least distance() of a predecessor of `state` (0 for the start state): a lower bound on
  // the text below a stack whose lowest known state is `state`.
  std::uint64_t below_cost(StateId state) const { return below_cost_[state]; }

  // A lower bound on the terminals any stack with `state` on top still derives before it is
  // accepted (over every stack below; 0 for the accepting state).
  std::uint64_t completion_bound(StateId state) const { return completion_bound_[state]; }

  // Steps that take the stack (state 0 first) to a stack holding only `start` above state 0,
  // deriving the fewest terminals; nullopt when the stack cannot be completed.
  std::optional<std::vector<ReplayStep>> complete(std::span<const StateId> stack) const;

  // A shortest derivation tree of `symbol` whose leaves start at token `position`, which is
  // advanced past them.
  TreeRef shortest_tree(SymbolId symbol, std::uint32_t& position) const;

  // Replays the steps on an empty tree stack from token 0 and returns the stack of trees left.
  // Throws glrmask::Error (an internal error) if a reduction finds too few trees or wrong symbols.
  std::vector<TreeRef> replay(std::span<const ReplayStep> steps) const;

  const LalrAutomaton& automaton() const { return automaton_; }

 private:
  const LalrAutomaton& automaton_;
  std::vector<std::uint64_t> distance_;
  std::vector<StateId> parent_;  // on a shortest path from the start state
  std::vector<std::uint64_t> below_cost_;
  std::vector<std::uint64_t> completion_bound_;
  std::vector<RuleId> shortest_rule_;  // per symbol, for nonterminals; acyclic choices
};

}  // namespace glrmask::glr
