// The conflict report: every (state, lookahead) cell of the LALR(1) table with more than one
// action, which items compete there, a shortest input that gets the parser there, whether a
// reduce/reduce conflict is only an artifact of LALR's state merging, and what Lark would do.
// It drives ambiguity exploration: a grammar author reads it to see where GLR will fork.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "glr/ids.h"
#include "glr/lalr_automaton.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_action.h"

namespace glrmask::glr {

enum class MergeVerdict : std::uint8_t {
  kNotReduceReduce,  // shift/reduce only: LALR merging never creates those
  kNotChecked,       // canonical LR(1) exceeded the state limit
  kLalrArtifact,     // no canonical LR(1) state with this core has the reduce/reduce conflict
  kCanonical,        // canonical LR(1) has it too: the grammar is not LR(1) here
};

struct Conflict {
  StateId state = 0;
  SymbolId lookahead = 0;
  std::vector<Action> actions;       // all of them (shift or accept first, then reductions)
  std::vector<Action> lark_actions;  // what ConflictPolicy::kLark keeps
  std::vector<Item> shift_items;     // items of the state with the lookahead after the dot
  // Terminals after which a parser reading `lookahead` next is in `state` with one of the
  // reductions valid (canonical LR(1) sense); nullopt if longer than the limit.
  std::optional<std::vector<SymbolId>> example;
  MergeVerdict merge = MergeVerdict::kNotReduceReduce;

  bool has_shift() const { return !actions.empty() && !actions.front().is_reduce(); }
  std::size_t num_reductions() const { return actions.size() - (has_shift() ? 1 : 0); }
  bool shift_reduce() const { return has_shift() && num_reductions() > 0; }
  bool reduce_reduce() const { return num_reductions() > 1; }
};

struct ConflictStats {
  std::uint32_t terminals = 0;     // the grammar's, without $END
  std::uint32_t nonterminals = 0;  // the grammar's, without $accept
  std::uint32_t rules = 0;         // the grammar's, without the augmented rule
  std::uint32_t states = 0;
  std::uint32_t conflict_cells = 0;
  std::uint32_t shift_reduce = 0;   // cells with a shift (or accept) and a reduction
  std::uint32_t reduce_reduce = 0;  // cells with two or more reductions (may also shift)
  std::size_t table_bytes = 0;      // the kKeepAll action/goto table
  std::optional<std::uint32_t> canonical_lr1_states;  // when the canonical check ran to the end
};

struct ConflictReport {
  ConflictStats stats;
  std::vector<Conflict> conflicts;  // by state, then lookahead
};

struct ConflictReportOptions {
  bool examples = true;
  std::uint64_t max_example_length = 1000;
  // Canonical LR(1) runs only when there are reduce/reduce conflicts, up to this many states.
  std::uint32_t canonical_state_limit = 20000;
};

ConflictReport report_conflicts(const LalrAutomaton& automaton,
                                const ConflictReportOptions& options = {});

// Human-readable text: a stats header, then one block per conflict.
std::string format_conflict_report(const LalrAutomaton& automaton, const ConflictReport& report);

}  // namespace glrmask::glr
