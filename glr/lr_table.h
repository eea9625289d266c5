// The LR action and goto tables with every conflict kept: a (state, terminal) cell holds a list of
// actions, so a GLR parser can fork on it. Stored as flat arrays (one row of sorted cells per
// state, one array of actions) because the parser reads them on every terminal.
//
// Conflict policies are views computed from the full table:
//   kKeepAll  every action (what GLR needs);
//   kLark     what Lark's LALR parser does: shift (or accept) wins a shift/reduce conflict, and a
//             reduce/reduce conflict keeps only the reductions of the highest rule priority
//             (equal priorities stay as a fork; Lark itself would reject the grammar there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "glr/lalr_lookaheads.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_action.h"
#include "glr/lr_grammar.h"

namespace glrmask::glr {

enum class ConflictPolicy : std::uint8_t { kKeepAll, kLark };

class LrTable {
 public:
  struct GotoEntry {
    SymbolId nonterminal = 0;
    StateId target = 0;
  };

  static LrTable build(const LrGrammar& grammar, const Lr0Automaton& lr0,
                       const LalrLookaheads& lookaheads);
  // A copy with conflicts resolved by `policy` (kKeepAll copies).
  LrTable resolved(ConflictPolicy policy) const;

  ConflictPolicy policy() const { return policy_; }
  std::uint32_t num_states() const { return static_cast<std::uint32_t>(row_begin_.size()) - 1; }
  std::uint32_t num_terminals() const { return num_terminals_; }  // including $END

  // The actions of a cell, empty when the terminal is a syntax error in that state. A shift or
  // accept comes first, then reductions by ascending rule id.
  std::span<const Action> actions(StateId state, SymbolId terminal) const;

  // Row iteration: cells row_begin(s) .. row_end(s)-1 hold the state's terminals in order.
  std::uint32_t row_begin(StateId state) const { return row_begin_[state]; }
  std::uint32_t row_end(StateId state) const { return row_begin_[state + 1]; }
  SymbolId cell_terminal(std::uint32_t cell) const { return cells_[cell].terminal; }
  std::span<const Action> cell_actions(std::uint32_t cell) const {
    return {actions_.data() + cells_[cell].first_action,
            cells_[cell + 1].first_action - cells_[cell].first_action};
  }
  std::uint32_t num_cells() const { return static_cast<std::uint32_t>(cells_.size()) - 1; }

  // Target of the goto on a nonterminal, or kNoState.
  StateId goto_state(StateId state, SymbolId nonterminal) const;
  std::span<const GotoEntry> gotos(StateId state) const {
    return {gotos_.data() + goto_begin_[state], goto_begin_[state + 1] - goto_begin_[state]};
  }

  SymbolId rule_lhs(RuleId rule) const { return rule_lhs_[rule]; }
  std::uint32_t rule_length(RuleId rule) const { return rule_length_[rule]; }
  int rule_priority(RuleId rule) const { return rule_priority_[rule]; }

  // Cells with more than one action.
  std::uint32_t num_conflict_cells() const;
  std::size_t size_in_bytes() const;

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;

  struct Cell {
    SymbolId terminal = 0;
    std::uint32_t first_action = 0;
  };

  ConflictPolicy policy_ = ConflictPolicy::kKeepAll;
  std::uint32_t num_terminals_ = 0;
  std::vector<std::uint32_t> row_begin_;  // num_states + 1 offsets into cells_
  std::vector<Cell> cells_;               // plus a sentinel whose first_action ends the last cell
  std::vector<Action> actions_;
  std::vector<std::uint32_t> goto_begin_;  // num_states + 1 offsets into gotos_
  std::vector<GotoEntry> gotos_;
  std::vector<SymbolId> rule_lhs_;
  std::vector<std::uint32_t> rule_length_;
  std::vector<int> rule_priority_;
};

}  // namespace glrmask::glr
