// For every (LR state, terminal): does a stack with that state on top surely shift the terminal
// after its reductions, never shift it, or does it depend on the states further down? Computed
// once from the table alone, so the Parser DWA construction can decide most "can the next
// terminal be shifted?" checks at the top state instead of suspending them until deeper states
// are read (GreatGramma's context-independent accept/reject split, for single terminals).
//
// Both verdicts are sound over-approximations of the stacks: a reduction may expose any state
// that has a path of the rule's length to the current one in the LR automaton, valid stack or
// not. kSure holds when, for some action, every such exposure leads to a shift (least fixpoint);
// kNever when no action and no exposure can (the complement of the least "maybe" fixpoint).
#pragma once

#include <cstdint>
#include <vector>

#include "glr/ids.h"
#include "glr/lr_table.h"

namespace glrmask::mask {

enum class ShiftVerdict : std::uint8_t { kDepends = 0, kSure = 1, kNever = 2 };

class ShiftVerdicts {
 public:
  // `predecessors[s]`: the states with a shift or goto to s, ascending. `table` must outlive
  // this object.
  ShiftVerdicts(const glr::LrTable& table,
                const std::vector<std::vector<glr::StateId>>& predecessors);

  // `terminal` may be the end of input (accept counts as shifting it). A terminal without an
  // action in `state` is never shifted from it.
  ShiftVerdict verdict(glr::StateId state, glr::SymbolId terminal) const;

  // The verdict of the table's cell `cell` (LrTable::row_begin .. row_end): every (state,
  // terminal) whose verdict is not kNever has a cell.
  ShiftVerdict cell_verdict(std::uint32_t cell) const { return verdicts_[cell]; }

 private:
  const glr::LrTable* table_;
  // Per LR table cell, so the size follows the table's actions, not states times terminals
  // (an object schema with n optional keys has about n of each).
  std::vector<ShiftVerdict> verdicts_;
};

}  // namespace glrmask::mask
