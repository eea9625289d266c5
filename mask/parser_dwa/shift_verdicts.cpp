#include "mask/parser_dwa/shift_verdicts.h"

#include <algorithm>
#include <map>
#include <utility>

namespace glrmask::mask {

namespace {

using glr::StateId;
using glr::SymbolId;

constexpr std::uint32_t kNoCell = 0xffffffffu;

// States from which a path of `length` LR transitions leads to `state`, memoized.
class Ancestors {
 public:
  explicit Ancestors(const std::vector<std::vector<StateId>>& predecessors)
      : predecessors_(predecessors) {}

  const std::vector<StateId>& at(StateId state, std::uint32_t length) {
    const auto key = std::make_pair(state, length);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::vector<StateId> result;
    if (length == 0) {
      result = {state};
    } else {
      for (const StateId above : at(state, length - 1))
        for (const StateId below : predecessors_[above]) result.push_back(below);
      std::sort(result.begin(), result.end());
      result.erase(std::unique(result.begin(), result.end()), result.end());
    }
    return memo_.emplace(key, std::move(result)).first->second;
  }

 private:
  const std::vector<std::vector<StateId>>& predecessors_;
  std::map<std::pair<StateId, std::uint32_t>, std::vector<StateId>> memo_;
};

// The cell of (state, terminal) in the table, or kNoCell.
std::uint32_t find_cell(const glr::LrTable& table, StateId state, SymbolId terminal) {
  std::uint32_t low = table.row_begin(state);
  std::uint32_t high = table.row_end(state);
  while (low < high) {
    const std::uint32_t mid = low + (high - low) / 2;
    if (table.cell_terminal(mid) < terminal) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low < table.row_end(state) && table.cell_terminal(low) == terminal ? low : kNoCell;
}

}  // namespace

// Both verdicts are Horn-clause fixpoints over the cells, solved with a worklist: a reduction
// (cell c, rule r) is "all" when every exposed state's goto target surely shifts the terminal
// (a count of targets not yet sure, decremented as they become sure) and "any" when some target
// may. Each (reduction, exposed state) is visited once per fact it waits for, so the cost follows
// the table's reductions and their exposures, however long the chains of reductions are.
ShiftVerdicts::ShiftVerdicts(const glr::LrTable& table,
                             const std::vector<std::vector<StateId>>& predecessors)
    : table_(&table) {
  const std::uint32_t cells = table.num_cells();
  std::vector<char> sure(cells, 0);
  std::vector<char> maybe(cells, 0);
  std::vector<std::uint32_t> sure_queue;
  std::vector<std::uint32_t> maybe_queue;
  // A reduction of a cell: its cell and how many of its targets are not sure yet.
  struct Reduction {
    std::uint32_t cell;
    std::uint32_t not_sure;
  };
  std::vector<Reduction> reductions;
  // Per target cell, the reductions waiting on it (a reduction once per exposure reaching it).
  std::vector<std::vector<std::uint32_t>> waiting(cells);
  Ancestors ancestors(predecessors);
  for (StateId s = 0; s < table.num_states(); ++s) {
    for (std::uint32_t cell = table.row_begin(s); cell < table.row_end(s); ++cell) {
      const SymbolId t = table.cell_terminal(cell);
      for (const glr::Action action : table.cell_actions(cell)) {
        if (action.is_shift() || action.is_accept()) {
          if (sure[cell] == 0) {
            sure[cell] = 1;
            maybe[cell] = 1;
            sure_queue.push_back(cell);
            maybe_queue.push_back(cell);
          }
          continue;
        }
        if (!action.is_reduce()) continue;
        const SymbolId lhs = table.rule_lhs(action.rule());
        const auto id = static_cast<std::uint32_t>(reductions.size());
        Reduction reduction{cell, 0};
        for (const StateId exposed : ancestors.at(s, table.rule_length(action.rule()))) {
          const StateId target = table.goto_state(exposed, lhs);
          const std::uint32_t target_cell =
              target == glr::kNoState ? kNoCell : find_cell(table, target, t);
          // A target without the terminal never shifts it: the reduction is never "all".
          if (target_cell == kNoCell) {
            reduction.not_sure = kNoCell;
            continue;
          }
          if (reduction.not_sure != kNoCell) ++reduction.not_sure;
          waiting[target_cell].push_back(id);
        }
        // No exposure at all: "all" holds vacuously, as the round-robin fixpoint had it.
        reductions.push_back(reduction);
        if (reduction.not_sure == 0 && sure[cell] == 0) {
          sure[cell] = 1;
          sure_queue.push_back(cell);
        }
      }
    }
  }
  // "any": a cell may shift once one target of one of its reductions may.
  while (!maybe_queue.empty()) {
    const std::uint32_t cell = maybe_queue.back();
    maybe_queue.pop_back();
    for (const std::uint32_t id : waiting[cell]) {
      const std::uint32_t waiter = reductions[id].cell;
      if (maybe[waiter] == 0) {
        maybe[waiter] = 1;
        maybe_queue.push_back(waiter);
      }
    }
  }
  // "all": a reduction is sure once each of its exposures' targets is.
  while (!sure_queue.empty()) {
    const std::uint32_t cell = sure_queue.back();
    sure_queue.pop_back();
    for (const std::uint32_t id : waiting[cell]) {
      Reduction& reduction = reductions[id];
      if (reduction.not_sure == kNoCell || reduction.not_sure == 0) continue;
      if (--reduction.not_sure == 0 && sure[reduction.cell] == 0) {
        sure[reduction.cell] = 1;
        sure_queue.push_back(reduction.cell);
      }
    }
  }
  verdicts_.assign(cells, ShiftVerdict::kDepends);
  for (std::uint32_t cell = 0; cell < cells; ++cell) {
    if (sure[cell] != 0) {
      verdicts_[cell] = ShiftVerdict::kSure;
    } else if (maybe[cell] == 0) {
      verdicts_[cell] = ShiftVerdict::kNever;
    }
  }
}

ShiftVerdict ShiftVerdicts::verdict(StateId state, SymbolId terminal) const {
  const std::uint32_t cell = find_cell(*table_, state, terminal);
  return cell == kNoCell ? ShiftVerdict::kNever : verdicts_[cell];
}

}  // namespace glrmask::mask
