#include "glr/analysis/canonical_lr1.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "glr/terminal_set.h"

namespace glrmask::glr {
namespace {

// How lookaheads flow through one LR(0) state, independent of the kernel's lookaheads. Slots
// number the kernel items, then the predicted nonterminals (whose initial items share one
// lookahead set).
struct CorePlan {
  std::uint32_t kernel_size = 0;
  std::vector<TerminalSet> spontaneous;                         // per predicted nonterminal
  std::vector<std::pair<std::uint32_t, std::uint32_t>> passes;  // (slot, predicted) when nullable
  std::vector<std::pair<RuleId, std::uint32_t>> reductions;     // (rule, slot)
  std::vector<std::pair<StateId, std::vector<std::uint32_t>>> successors;  // target, kernel sources
};

class CoreSlots {
 public:
  CoreSlots(const LrGrammar& grammar, const Lr0Automaton& lr0, StateId state)
      : grammar_(grammar), kernel_(lr0.kernel(state)), predicted_(lr0.predicted(state)) {}

  std::uint32_t predicted_index(SymbolId nonterminal) const {
    return static_cast<std::uint32_t>(
        std::lower_bound(predicted_.begin(), predicted_.end(), nonterminal) - predicted_.begin());
  }
  std::uint32_t slot(Item item) const {
    const auto it = std::lower_bound(kernel_.begin(), kernel_.end(), item);
    if (it != kernel_.end() && *it == item) return static_cast<std::uint32_t>(it - kernel_.begin());
    return static_cast<std::uint32_t>(kernel_.size()) + predicted_index(grammar_.lhs(item.rule));
  }

 private:
  const LrGrammar& grammar_;
  std::span<const Item> kernel_;
  std::span<const SymbolId> predicted_;
};

CorePlan plan_core(const LrGrammar& grammar, const GrammarSets& sets, const Lr0Automaton& lr0,
                   StateId state) {
  CorePlan plan;
  const CoreSlots slots(grammar, lr0, state);
  plan.kernel_size = static_cast<std::uint32_t>(lr0.kernel(state).size());
  plan.spontaneous.assign(lr0.predicted(state).size(), TerminalSet(grammar.num_terminals()));
  std::vector<Item> closure;
  lr0.closure(grammar, state, closure);
  for (const Item& item : closure) {
    const std::uint32_t slot = slots.slot(item);
    const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
    if (item.dot == rhs.size()) {
      if (item.rule != grammar.accept_rule()) plan.reductions.emplace_back(item.rule, slot);
      continue;
    }
    if (grammar.is_terminal(rhs[item.dot])) continue;
    const std::uint32_t predicted = slots.predicted_index(rhs[item.dot]);
    if (sets.add_first_of_sequence(rhs.subspan(item.dot + 1), plan.spontaneous[predicted])) {
      plan.passes.emplace_back(slot, predicted);
    }
  }
  for (const Transition& transition : lr0.transitions(state)) {
    std::vector<std::uint32_t> sources;
    for (const Item& item : lr0.kernel(transition.target)) {
      sources.push_back(slots.slot(Item{item.rule, item.dot - 1}));
    }
    plan.successors.emplace_back(transition.target, std::move(sources));
  }
  return plan;
}

struct KeyHash {
  std::size_t operator()(const std::vector<std::uint64_t>& key) const {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (std::uint64_t word : key) hash = (hash ^ word) * 0x100000001b3ULL;
    return static_cast<std::size_t>(hash);
  }
};

}  // namespace

bool CanonicalLr1Summary::has_reduce_reduce(StateId core, SymbolId terminal) const {
  return std::binary_search(reduce_reduce_cells.begin(), reduce_reduce_cells.end(),
                            std::make_pair(core, terminal));
}

std::optional<CanonicalLr1Summary> analyze_canonical_lr1(const LrGrammar& grammar,
                                                         const GrammarSets& sets,
                                                         const Lr0Automaton& lr0,
                                                         std::uint32_t max_states) {
  std::vector<std::optional<CorePlan>> plans(lr0.num_states());
  auto plan_of = [&](StateId core) -> const CorePlan& {
    if (!plans[core]) plans[core] = plan_core(grammar, sets, lr0, core);
    return *plans[core];
  };

  // A canonical state is its core followed by the blocks of each kernel item's lookahead set.
  struct State {
    StateId core;
    std::vector<TerminalSet> kernel_lookaheads;
  };
  std::unordered_map<std::vector<std::uint64_t>, std::uint32_t, KeyHash> known;
  std::deque<State> pending;
  std::uint32_t num_states = 0;
  bool too_large = false;
  auto visit = [&](StateId core, std::vector<TerminalSet> lookaheads) {
    std::vector<std::uint64_t> key{core};
    for (const TerminalSet& set : lookaheads) boost::to_block_range(set, std::back_inserter(key));
    if (!known.emplace(std::move(key), num_states).second) return;
    if (++num_states > max_states) too_large = true;
    pending.push_back(State{core, std::move(lookaheads)});
  };
  visit(Lr0Automaton::kStartState, {TerminalSet(grammar.num_terminals())});

  CanonicalLr1Summary summary;
  std::vector<TerminalSet> slots;
  TerminalSet seen(grammar.num_terminals());
  TerminalSet twice(grammar.num_terminals());
  while (!pending.empty() && !too_large) {
    const State state = std::move(pending.front());
    pending.pop_front();
    const CorePlan& plan = plan_of(state.core);
    slots = state.kernel_lookaheads;
    slots.insert(slots.end(), plan.spontaneous.begin(), plan.spontaneous.end());
    // Closure lookaheads: propagate along nullable tails to a fixpoint (the graphs are tiny).
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [from, predicted] : plan.passes) {
        TerminalSet& to = slots[plan.kernel_size + predicted];
        if (!slots[from].is_subset_of(to)) {
          to |= slots[from];
          changed = true;
        }
      }
    }
    seen.reset();
    twice.reset();
    for (const auto& [rule, slot] : plan.reductions) {
      twice |= seen & slots[slot];
      seen |= slots[slot];
    }
    for (std::size_t t = twice.find_first(); t != TerminalSet::npos; t = twice.find_next(t)) {
      summary.reduce_reduce_cells.emplace_back(state.core, static_cast<SymbolId>(t));
    }
    for (const auto& [target, sources] : plan.successors) {
      std::vector<TerminalSet> lookaheads;
      lookaheads.reserve(sources.size());
      for (std::uint32_t source : sources) lookaheads.push_back(slots[source]);
      visit(target, std::move(lookaheads));
    }
  }
  if (too_large) return std::nullopt;
  std::sort(summary.reduce_reduce_cells.begin(), summary.reduce_reduce_cells.end());
  summary.reduce_reduce_cells.erase(
      std::unique(summary.reduce_reduce_cells.begin(), summary.reduce_reduce_cells.end()),
      summary.reduce_reduce_cells.end());
  summary.num_states = num_states;
  return summary;
}

}  // namespace glrmask::glr
