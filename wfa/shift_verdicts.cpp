#include "wfa/shift_verdicts.h"

#include <algorithm>
#include <map>
#include <utility>

namespace glrmask::wfa {

namespace {

using glr::StateId;
using glr::SymbolId;

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

}  // namespace

ShiftVerdicts::ShiftVerdicts(const glr::LrTable& table,
                             const std::vector<std::vector<StateId>>& predecessors)
    : num_terminals_(table.num_terminals()) {
  const std::uint32_t states = table.num_states();
  const std::size_t cells = std::size_t{states} * num_terminals_;
  std::vector<char> sure(cells, 0);
  std::vector<char> maybe(cells, 0);
  Ancestors ancestors(predecessors);
  auto index = [&](StateId s, SymbolId t) { return std::size_t{s} * num_terminals_ + t; };
  for (StateId s = 0; s < states; ++s) {
    for (std::uint32_t cell = table.row_begin(s); cell < table.row_end(s); ++cell) {
      for (const glr::Action action : table.cell_actions(cell)) {
        if (action.is_shift() || action.is_accept()) {
          sure[index(s, table.cell_terminal(cell))] = 1;
          maybe[index(s, table.cell_terminal(cell))] = 1;
        }
      }
    }
  }
  // Both fixpoints grow monotonically; iterate until neither changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (StateId s = 0; s < states; ++s) {
      for (std::uint32_t cell = table.row_begin(s); cell < table.row_end(s); ++cell) {
        const SymbolId t = table.cell_terminal(cell);
        char& is_sure = sure[index(s, t)];
        char& is_maybe = maybe[index(s, t)];
        if (is_sure != 0 && is_maybe != 0) continue;
        for (const glr::Action action : table.cell_actions(cell)) {
          if (!action.is_reduce()) continue;
          const SymbolId lhs = table.rule_lhs(action.rule());
          bool all = true;
          bool any = false;
          for (const StateId exposed : ancestors.at(s, table.rule_length(action.rule()))) {
            const StateId target = table.goto_state(exposed, lhs);
            const bool target_sure = target != glr::kNoState && sure[index(target, t)] != 0;
            const bool target_maybe = target != glr::kNoState && maybe[index(target, t)] != 0;
            all = all && target_sure;
            any = any || target_maybe;
          }
          if (all && is_sure == 0) {
            is_sure = 1;
            changed = true;
          }
          if (any && is_maybe == 0) {
            is_maybe = 1;
            changed = true;
          }
        }
      }
    }
  }
  verdicts_.assign(cells, ShiftVerdict::kDepends);
  for (std::size_t i = 0; i < cells; ++i) {
    if (sure[i] != 0) {
      verdicts_[i] = ShiftVerdict::kSure;
    } else if (maybe[i] == 0) {
      verdicts_[i] = ShiftVerdict::kNever;
    }
  }
}

}  // namespace glrmask::wfa
