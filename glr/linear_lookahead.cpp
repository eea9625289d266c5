#include "glr/linear_lookahead.h"

#include <boost/container/small_vector.hpp>
#include <cstdint>

namespace glrmask::glr {

std::optional<bool> linear_can_shift(const LrTable& table, const GssNode& head, SymbolId terminal) {
  // The stack is `pushed` (states made by gotos, top last) above the real node `real`.
  constexpr int kMaxSteps = 256;  // a real reduction chain is a few steps; this bounds cycles
  boost::container::small_vector<StateId, 16> pushed;
  const GssNode* real = &head;
  for (int step = 0; step < kMaxSteps; ++step) {
    const StateId top = pushed.empty() ? real->state() : pushed.back();
    const std::span<const Action> actions = table.actions(top, terminal);
    if (actions.empty()) return false;
    if (actions.size() > 1) return std::nullopt;
    const Action action = actions.front();
    if (!action.is_reduce()) return true;  // shift, or accept on $END
    std::uint32_t pops = table.rule_length(action.rule());
    while (pops > 0 && !pushed.empty()) {
      pushed.pop_back();
      --pops;
    }
    for (; pops > 0; --pops) {
      const std::span<const GssNode* const> below = real->below();
      if (below.size() != 1) return std::nullopt;
      real = below.front();
    }
    const StateId exposed = pushed.empty() ? real->state() : pushed.back();
    const StateId target = table.goto_state(exposed, table.rule_lhs(action.rule()));
    if (target == kNoState) return std::nullopt;  // not on a valid stack; let the parser decide
    pushed.push_back(target);
  }
  return std::nullopt;
}

}  // namespace glrmask::glr
