#include "glr/analysis/yield_distances.h"

#include <functional>
#include <queue>
#include <utility>

namespace glrmask::glr {

YieldDistances yield_distances_from_start(const Lr0Automaton& lr0, const GrammarSets& sets) {
  YieldDistances out;
  out.distance.assign(lr0.num_states(), GrammarSets::kUnproductive);
  out.parent.assign(lr0.num_states(), kNoState);
  using Entry = std::pair<std::uint64_t, StateId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  out.distance[Lr0Automaton::kStartState] = 0;
  queue.emplace(0, Lr0Automaton::kStartState);
  while (!queue.empty()) {
    const auto [distance, state] = queue.top();
    queue.pop();
    if (distance != out.distance[state]) continue;
    for (const Transition& transition : lr0.transitions(state)) {
      const std::uint64_t length = sets.shortest_yield_length(transition.symbol);
      if (length == GrammarSets::kUnproductive) continue;  // no text crosses it
      const std::uint64_t through = distance + length;
      if (through < out.distance[transition.target]) {
        out.distance[transition.target] = through;
        out.parent[transition.target] = state;
        queue.emplace(through, transition.target);
      }
    }
  }
  return out;
}

}  // namespace glrmask::glr
