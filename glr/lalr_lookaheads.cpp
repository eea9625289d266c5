#include "glr/lalr_lookaheads.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "glr/relation_closure.h"
#include "lib/core/error.h"

namespace glrmask::glr {
namespace {

// Numbers the nonterminal transitions (p, A) densely. Rows list terminals before nonterminals,
// so a state's nonterminal transitions are a suffix of its row and numbering them is arithmetic.
class NonterminalTransitions {
 public:
  NonterminalTransitions(const LrGrammar& grammar, const Lr0Automaton& lr0) : lr0_(lr0) {
    first_nonterminal_.resize(lr0.num_states());
    base_.resize(lr0.num_states() + 1);
    base_[0] = 0;
    for (StateId state = 0; state < lr0.num_states(); ++state) {
      const std::span<const Transition> row = lr0.transitions(state);
      const auto first = std::find_if(row.begin(), row.end(), [&](const Transition& t) {
        return !grammar.is_terminal(t.symbol);
      });
      first_nonterminal_[state] = static_cast<std::uint32_t>(first - row.begin());
      base_[state + 1] = base_[state] + static_cast<std::uint32_t>(row.end() - first);
      for (auto it = first; it != row.end(); ++it) {
        from_.push_back(state);
        symbol_.push_back(it->symbol);
        to_.push_back(it->target);
      }
    }
  }

  std::uint32_t size() const { return static_cast<std::uint32_t>(from_.size()); }
  StateId from(std::uint32_t x) const { return from_[x]; }
  SymbolId symbol(std::uint32_t x) const { return symbol_[x]; }
  StateId to(std::uint32_t x) const { return to_[x]; }
  std::span<const Transition> of_state(StateId state) const {
    return lr0_.transitions(state).subspan(first_nonterminal_[state]);
  }
  // The index of (state, nonterminal); the transition must exist.
  std::uint32_t index(StateId state, SymbolId nonterminal) const {
    const std::span<const Transition> row = of_state(state);
    const auto it =
        std::lower_bound(row.begin(), row.end(), nonterminal,
                         [](const Transition& t, SymbolId wanted) { return t.symbol < wanted; });
    return base_[state] + static_cast<std::uint32_t>(it - row.begin());
  }

 private:
  const Lr0Automaton& lr0_;
  std::vector<std::uint32_t> first_nonterminal_;  // position of the first nonterminal in the row
  std::vector<std::uint32_t> base_;               // index of the state's first one
  std::vector<StateId> from_;
  std::vector<SymbolId> symbol_;
  std::vector<StateId> to_;
};

}  // namespace

LalrLookaheads::LalrLookaheads(const LrGrammar& grammar, const GrammarSets& sets,
                               const Lr0Automaton& lr0, std::size_t max_memory_bytes) {
  const NonterminalTransitions transitions(grammar, lr0);
  const std::uint32_t n = transitions.size();
  // The follow sets and close_over_relation's solved copies: two dense sets per transition.
  const std::size_t set_bytes =
      sizeof(TerminalSet) + (grammar.num_terminals() + 63) / 64 * sizeof(std::uint64_t);
  const std::size_t needed = 2 * std::size_t{n} * set_bytes;
  if (max_memory_bytes != 0 && needed > max_memory_bytes) {
    throw Error(
        fmt::format(
            "LALR(1) lookaheads: {} nonterminal transitions over {} terminals "
            "need {} MiB of lookahead sets, above {} MiB (limit Limits::max_compile_memory_mib)",
            n, grammar.num_terminals(), needed >> 20, max_memory_bytes >> 20),
        ErrorCode::kLimit);
  }

  // DR and reads.
  std::vector<TerminalSet> follow(n, TerminalSet(grammar.num_terminals()));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> reads;
  for (std::uint32_t x = 0; x < n; ++x) {
    const StateId target = transitions.to(x);
    for (const Transition& t : lr0.transitions(target)) {
      if (grammar.is_terminal(t.symbol)) {
        follow[x].set(t.symbol);
      } else if (sets.nullable(t.symbol)) {
        reads.emplace_back(x, transitions.index(target, t.symbol));
      }
    }
    if (lr0.accepts(target)) follow[x].set(grammar.end_of_input());
  }
  close_over_relation(Relation::from_pairs(n, std::move(reads)), follow);  // now Read

  // Where each rule's right-hand side stops being nullable to the end: includes needs
  // "the rest of the rule after position i is nullable" for every i.
  std::vector<std::uint32_t> nullable_suffix_from(grammar.num_rules());
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    const std::span<const SymbolId> rhs = grammar.rhs(rule);
    std::uint32_t from = static_cast<std::uint32_t>(rhs.size());
    while (from > 0 && sets.nullable(rhs[from - 1])) --from;
    nullable_suffix_from[rule] = from;
  }

  // includes and lookback, by walking every rule A -> ω from every p with a transition on A.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> includes;
  std::vector<std::tuple<StateId, RuleId, std::uint32_t>> lookbacks;
  for (std::uint32_t x = 0; x < n; ++x) {
    const SymbolId lhs = transitions.symbol(x);
    for (RuleId rule : grammar.rules_of(lhs)) {
      const std::span<const SymbolId> rhs = grammar.rhs(rule);
      StateId state = transitions.from(x);
      for (std::uint32_t i = 0; i < rhs.size(); ++i) {
        if (!grammar.is_terminal(rhs[i]) && i + 1 >= nullable_suffix_from[rule]) {
          includes.emplace_back(transitions.index(state, rhs[i]), x);
        }
        state = lr0.transition(state, rhs[i]);
      }
      lookbacks.emplace_back(state, rule, x);
    }
  }
  close_over_relation(Relation::from_pairs(n, std::move(includes)), follow);  // now Follow

  std::sort(lookbacks.begin(), lookbacks.end());
  begin_.assign(lr0.num_states() + 1, 0);
  for (std::size_t i = 0; i < lookbacks.size();) {
    const auto [state, rule, first_x] = lookbacks[i];
    Reduction reduction{rule, follow[first_x]};
    for (++i; i < lookbacks.size() && std::get<0>(lookbacks[i]) == state &&
              std::get<1>(lookbacks[i]) == rule;
         ++i) {
      reduction.lookahead |= follow[std::get<2>(lookbacks[i])];
    }
    reductions_.push_back(std::move(reduction));
    ++begin_[state + 1];
  }
  for (StateId state = 0; state < lr0.num_states(); ++state) begin_[state + 1] += begin_[state];
}

}  // namespace glrmask::glr
