// The LR(0) automaton of an augmented grammar: the states (item sets) every LR(1)-family table
// shares, their transitions, and the predecessor relation between states.
//
// A state stores only its kernel items; the closure is implied by the nonterminals it predicts
// (every rule of a predicted nonterminal appears with the dot in front). The item
// `$accept -> start . $END` has no transition on $END: reading $END there is the accept action.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "glr/lr_grammar.h"

namespace glrmask::glr {

// A dotted rule: `dot` symbols of the rule's right-hand side have been read.
struct Item {
  RuleId rule = 0;
  std::uint32_t dot = 0;
  auto operator<=>(const Item&) const = default;
};

struct Transition {
  SymbolId symbol = 0;
  StateId target = 0;
};

class Lr0Automaton {
 public:
  static constexpr StateId kStartState = 0;

  // Throws glrmask::Error if the automaton would exceed the state ids the tables can encode.
  explicit Lr0Automaton(const LrGrammar& grammar);

  std::uint32_t num_states() const { return static_cast<std::uint32_t>(accessing_symbol_.size()); }

  // Sorted kernel items. For the start state: `$accept -> . start $END`.
  std::span<const Item> kernel(StateId state) const {
    return slice(kernel_begin_, kernels_, state);
  }
  // Sorted nonterminals whose rules the closure adds with the dot at the start.
  std::span<const SymbolId> predicted(StateId state) const {
    return slice(predicted_begin_, predicted_, state);
  }
  // Kernel items followed by the predicted rules' initial items.
  void closure(const LrGrammar& grammar, StateId state, std::vector<Item>& out) const;

  // Outgoing transitions sorted by symbol (terminals first, as their ids are smaller).
  std::span<const Transition> transitions(StateId state) const {
    return slice(transition_begin_, transitions_, state);
  }
  // Target of the transition on `symbol`, or kNoState.
  StateId transition(StateId state, SymbolId symbol) const;
  // Whether the state holds `$accept -> start . $END`, i.e. accepts on $END.
  bool accepts(StateId state) const { return state == accept_state_; }
  StateId accept_state() const { return accept_state_; }

  // The symbol every transition into the state reads; kNoSymbol for the start state.
  SymbolId accessing_symbol(StateId state) const { return accessing_symbol_[state]; }
  // The states that can sit directly below `state` on a parser stack: those with a transition
  // into it (on its accessing symbol). Sorted; empty for the start state.
  std::span<const StateId> predecessors(StateId state) const {
    return slice(predecessor_begin_, predecessors_, state);
  }

  std::size_t size_in_bytes() const;

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;
  Lr0Automaton() = default;

  template <typename T>
  static std::span<const T> slice(const std::vector<std::uint32_t>& begin,
                                  const std::vector<T>& data, StateId state) {
    return {data.data() + begin[state], begin[state + 1] - begin[state]};
  }

  std::vector<std::uint32_t> kernel_begin_;
  std::vector<Item> kernels_;
  std::vector<std::uint32_t> predicted_begin_;
  std::vector<SymbolId> predicted_;
  std::vector<std::uint32_t> transition_begin_;
  std::vector<Transition> transitions_;
  std::vector<SymbolId> accessing_symbol_;
  std::vector<std::uint32_t> predecessor_begin_;
  std::vector<StateId> predecessors_;
  StateId accept_state_ = kNoState;
};

}  // namespace glrmask::glr
