#include "glr/lr_table.h"

#include <algorithm>
#include <tuple>

#include "lib/core/check.h"

namespace glrmask::glr {
namespace {

// The actions Lark's parser would keep (see ConflictPolicy::kLark).
std::vector<Action> lark_choice(std::span<const Action> actions, const LrTable& table) {
  if (actions.size() <= 1) return {actions.begin(), actions.end()};
  if (!actions.front().is_reduce()) return {actions.front()};
  int best = table.rule_priority(actions.front().rule());
  for (Action action : actions) best = std::max(best, table.rule_priority(action.rule()));
  std::vector<Action> kept;
  for (Action action : actions) {
    if (table.rule_priority(action.rule()) == best) kept.push_back(action);
  }
  return kept;
}

}  // namespace

LrTable LrTable::build(const LrGrammar& grammar, const Lr0Automaton& lr0,
                       const LalrLookaheads& lookaheads) {
  LrTable table;
  table.num_terminals_ = grammar.num_terminals();
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    table.rule_lhs_.push_back(grammar.lhs(rule));
    table.rule_length_.push_back(grammar.rhs_length(rule));
    table.rule_priority_.push_back(grammar.priority(rule));
  }

  // (terminal, 0 for shift or accept / 1 for reduce, action): sorting puts shifts first in a cell.
  std::vector<std::tuple<SymbolId, std::uint32_t, Action>> row;
  table.row_begin_.push_back(0);
  table.goto_begin_.push_back(0);
  for (StateId state = 0; state < lr0.num_states(); ++state) {
    row.clear();
    for (const Transition& t : lr0.transitions(state)) {
      if (grammar.is_terminal(t.symbol)) {
        row.emplace_back(t.symbol, 0, Action::shift(t.target));
      } else {
        table.gotos_.push_back(GotoEntry{t.symbol, t.target});
      }
    }
    if (lr0.accepts(state)) row.emplace_back(grammar.end_of_input(), 0, Action::accept());
    for (const Reduction& reduction : lookaheads.reductions(state)) {
      for (std::size_t t = reduction.lookahead.find_first(); t != TerminalSet::npos;
           t = reduction.lookahead.find_next(t)) {
        row.emplace_back(static_cast<SymbolId>(t), 1, Action::reduce(reduction.rule));
      }
    }
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
      return std::make_tuple(std::get<0>(a), std::get<1>(a), std::get<2>(a).bits()) <
             std::make_tuple(std::get<0>(b), std::get<1>(b), std::get<2>(b).bits());
    });
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i == 0 || std::get<0>(row[i]) != std::get<0>(row[i - 1])) {
        table.cells_.push_back(
            Cell{std::get<0>(row[i]), static_cast<std::uint32_t>(table.actions_.size())});
      }
      table.actions_.push_back(std::get<2>(row[i]));
    }
    table.row_begin_.push_back(static_cast<std::uint32_t>(table.cells_.size()));
    table.goto_begin_.push_back(static_cast<std::uint32_t>(table.gotos_.size()));
  }
  table.cells_.push_back(Cell{kNoSymbol, static_cast<std::uint32_t>(table.actions_.size())});
  return table;
}

LrTable LrTable::resolved(ConflictPolicy policy) const {
  LrTable table = *this;
  table.policy_ = policy;
  if (policy == ConflictPolicy::kKeepAll) return table;
  table.actions_.clear();
  for (std::uint32_t cell = 0; cell < num_cells(); ++cell) {
    table.cells_[cell].first_action = static_cast<std::uint32_t>(table.actions_.size());
    for (Action action : lark_choice(cell_actions(cell), *this)) table.actions_.push_back(action);
  }
  table.cells_.back().first_action = static_cast<std::uint32_t>(table.actions_.size());
  return table;
}

std::span<const Action> LrTable::actions(StateId state, SymbolId terminal) const {
  GLRMASK_DCHECK(state < num_states() && terminal < num_terminals_, "LR cell ({}, {}) of {} x {}",
                 state, terminal, num_states(), num_terminals_);
  const auto first = cells_.begin() + row_begin_[state];
  const auto last = cells_.begin() + row_begin_[state + 1];
  const auto it = std::lower_bound(first, last, terminal, [](const Cell& cell, SymbolId wanted) {
    return cell.terminal < wanted;
  });
  if (it == last || it->terminal != terminal) return {};
  return cell_actions(static_cast<std::uint32_t>(it - cells_.begin()));
}

StateId LrTable::goto_state(StateId state, SymbolId nonterminal) const {
  GLRMASK_DCHECK(state < num_states() && nonterminal >= num_terminals_, "goto ({}, {})", state,
                 nonterminal);
  const std::span<const GotoEntry> row = gotos(state);
  const auto it = std::lower_bound(
      row.begin(), row.end(), nonterminal,
      [](const GotoEntry& entry, SymbolId wanted) { return entry.nonterminal < wanted; });
  return it != row.end() && it->nonterminal == nonterminal ? it->target : kNoState;
}

std::uint32_t LrTable::num_conflict_cells() const {
  std::uint32_t count = 0;
  for (std::uint32_t cell = 0; cell < num_cells(); ++cell) count += cell_actions(cell).size() > 1;
  return count;
}

std::size_t LrTable::size_in_bytes() const {
  return sizeof(LrTable) + row_begin_.size() * sizeof(std::uint32_t) +
         cells_.size() * sizeof(Cell) + actions_.size() * sizeof(Action) +
         goto_begin_.size() * sizeof(std::uint32_t) + gotos_.size() * sizeof(GotoEntry) +
         rule_lhs_.size() * sizeof(SymbolId) + rule_length_.size() * sizeof(std::uint32_t) +
         rule_priority_.size() * sizeof(int);
}

}  // namespace glrmask::glr
