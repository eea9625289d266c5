#include "glr/lr0_automaton.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "lib/core/error.h"

namespace glrmask::glr {
namespace {

// Actions pack a state id with a 2-bit kind into 32 bits (glr/lr_action.h).
constexpr std::uint32_t kMaxStates = (std::uint32_t{1} << 30) - 1;

struct KernelHash {
  std::size_t operator()(const std::vector<Item>& items) const {
    std::uint64_t hash = 0x9e3779b97f4a7c15ULL;
    for (const Item& item : items) {
      hash ^= (std::uint64_t{item.rule} << 32 | item.dot) + 0x9e3779b97f4a7c15ULL + (hash << 6) +
              (hash >> 2);
    }
    return static_cast<std::size_t>(hash);
  }
};

}  // namespace

Lr0Automaton::Lr0Automaton(const LrGrammar& grammar) {
  const std::uint32_t num_nonterminals = grammar.num_nonterminals();
  // One step of the closure: the distinct nonterminals that begin a rule of each nonterminal.
  std::vector<std::vector<SymbolId>> left_corners(num_nonterminals);
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    const std::span<const SymbolId> rhs = grammar.rhs(rule);
    if (rhs.empty() || grammar.is_terminal(rhs[0])) continue;
    std::vector<SymbolId>& corners = left_corners[grammar.nonterminal_index(grammar.lhs(rule))];
    if (std::find(corners.begin(), corners.end(), rhs[0]) == corners.end()) {
      corners.push_back(rhs[0]);
    }
  }

  std::unordered_map<std::vector<Item>, StateId, KernelHash> state_of_kernel;
  kernel_begin_.push_back(0);
  auto find_or_add_state = [&](std::vector<Item>&& kernel, SymbolId accessing_symbol) {
    const auto [it, added] =
        state_of_kernel.try_emplace(std::move(kernel), static_cast<StateId>(num_states()));
    if (added) {
      if (num_states() >= kMaxStates) {
        throw Error(fmt::format("LR(0) automaton exceeds {} states", kMaxStates),
                    ErrorCode::kLimit);
      }
      kernels_.insert(kernels_.end(), it->first.begin(), it->first.end());
      kernel_begin_.push_back(static_cast<std::uint32_t>(kernels_.size()));
      accessing_symbol_.push_back(accessing_symbol);
    }
    return it->second;
  };
  find_or_add_state({Item{grammar.accept_rule(), 0}}, kNoSymbol);

  std::vector<StateId> predicted_in(num_nonterminals, kNoState);  // state that last predicted it
  std::vector<SymbolId> to_visit;
  std::vector<std::vector<Item>> advanced(grammar.num_symbols());  // kernel items per symbol read
  std::vector<SymbolId> symbols_read;
  predicted_begin_.push_back(0);
  transition_begin_.push_back(0);
  for (StateId state = 0; state < num_states(); ++state) {
    auto predict = [&](SymbolId nonterminal) {
      std::uint32_t index = grammar.nonterminal_index(nonterminal);
      if (predicted_in[index] == state) return;
      predicted_in[index] = state;
      to_visit.push_back(nonterminal);
    };
    auto read = [&](SymbolId symbol, Item next) {
      if (advanced[symbol].empty()) symbols_read.push_back(symbol);
      advanced[symbol].push_back(next);
    };

    const std::size_t first_predicted = predicted_.size();
    // Copy: kernels_ grows when new states are added below.
    const std::vector<Item> kernel(kernels_.begin() + kernel_begin_[state],
                                   kernels_.begin() + kernel_begin_[state + 1]);
    for (const Item& item : kernel) {
      const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
      if (item.dot == rhs.size()) continue;
      const SymbolId next = rhs[item.dot];
      if (next == grammar.end_of_input()) {
        accept_state_ = state;
        continue;
      }
      if (!grammar.is_terminal(next)) predict(next);
      read(next, Item{item.rule, item.dot + 1});
    }
    while (!to_visit.empty()) {
      const SymbolId nonterminal = to_visit.back();
      to_visit.pop_back();
      predicted_.push_back(nonterminal);
      for (SymbolId corner : left_corners[grammar.nonterminal_index(nonterminal)]) predict(corner);
    }
    std::sort(predicted_.begin() + static_cast<std::ptrdiff_t>(first_predicted), predicted_.end());
    predicted_begin_.push_back(static_cast<std::uint32_t>(predicted_.size()));
    for (std::size_t i = first_predicted; i < predicted_.size(); ++i) {
      for (RuleId rule : grammar.rules_of(predicted_[i])) {
        const std::span<const SymbolId> rhs = grammar.rhs(rule);
        if (!rhs.empty()) read(rhs[0], Item{rule, 1});
      }
    }

    std::sort(symbols_read.begin(), symbols_read.end());
    for (SymbolId symbol : symbols_read) {
      std::vector<Item> next_kernel = std::move(advanced[symbol]);
      advanced[symbol].clear();
      std::sort(next_kernel.begin(), next_kernel.end());
      const StateId target = find_or_add_state(std::move(next_kernel), symbol);
      transitions_.push_back(Transition{symbol, target});
    }
    symbols_read.clear();
    transition_begin_.push_back(static_cast<std::uint32_t>(transitions_.size()));
  }

  // Predecessors: the transition relation reversed, grouped by target.
  predecessor_begin_.assign(num_states() + 1, 0);
  for (const Transition& transition : transitions_) ++predecessor_begin_[transition.target + 1];
  for (StateId state = 0; state < num_states(); ++state) {
    predecessor_begin_[state + 1] += predecessor_begin_[state];
  }
  predecessors_.resize(transitions_.size());
  std::vector<std::uint32_t> fill(predecessor_begin_.begin(), predecessor_begin_.end() - 1);
  for (StateId state = 0; state < num_states(); ++state) {
    for (const Transition& transition : transitions(state)) {
      predecessors_[fill[transition.target]++] = state;  // states ascend, so rows come out sorted
    }
  }
}

void Lr0Automaton::closure(const LrGrammar& grammar, StateId state, std::vector<Item>& out) const {
  out.clear();
  const std::span<const Item> items = kernel(state);
  out.assign(items.begin(), items.end());
  for (SymbolId nonterminal : predicted(state)) {
    for (RuleId rule : grammar.rules_of(nonterminal)) out.push_back(Item{rule, 0});
  }
}

StateId Lr0Automaton::transition(StateId state, SymbolId symbol) const {
  const std::span<const Transition> row = transitions(state);
  const auto it = std::lower_bound(
      row.begin(), row.end(), symbol,
      [](const Transition& transition, SymbolId wanted) { return transition.symbol < wanted; });
  return it != row.end() && it->symbol == symbol ? it->target : kNoState;
}

std::size_t Lr0Automaton::size_in_bytes() const {
  return kernel_begin_.size() * sizeof(std::uint32_t) + kernels_.size() * sizeof(Item) +
         predicted_begin_.size() * sizeof(std::uint32_t) + predicted_.size() * sizeof(SymbolId) +
         transition_begin_.size() * sizeof(std::uint32_t) +
         transitions_.size() * sizeof(Transition) + accessing_symbol_.size() * sizeof(SymbolId) +
         predecessor_begin_.size() * sizeof(std::uint32_t) + predecessors_.size() * sizeof(StateId);
}

}  // namespace glrmask::glr
