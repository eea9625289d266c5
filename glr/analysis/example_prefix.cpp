#include "glr/analysis/example_prefix.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

#include "glr/analysis/yield_distances.h"
#include "glr/terminal_set.h"

namespace glrmask::glr {
namespace {

// An item of a state with the lookahead it must be valid for. `slot` numbers the state's kernel
// items first, then its predicted nonterminals (which stand for all their initial items: those
// share one lookahead set in LR(1)).
struct Node {
  StateId state = 0;
  std::uint32_t slot = 0;
  SymbolId lookahead = 0;  // a terminal, or the "any" marker
  bool operator==(const Node&) const = default;
};

struct NodeHash {
  std::size_t operator()(const Node& node) const {
    const std::uint64_t h = (std::uint64_t{node.state} << 32 | node.slot) * 0x9e3779b97f4a7c15ULL;
    return static_cast<std::size_t>(h ^ (std::uint64_t{node.lookahead} * 0xc2b2ae3d27d4eb4fULL));
  }
};

struct Visit {
  std::uint64_t cost = 0;
  Node toward_goal;              // the node this one was reached from (closer to the goal item)
  SymbolId crossed = kNoSymbol;  // symbol read between this node and toward_goal
  bool settled = false;
};

}  // namespace

// Per state: for each predicted nonterminal A, the closure items B -> γ . A δ that predict it.
struct ExamplePrefixFinder::StateIndex {
  struct Use {
    std::uint32_t slot = 0;  // the predicting item's slot
    bool rest_nullable = false;
    TerminalSet rest_first;  // FIRST(δ)
  };
  std::vector<std::vector<Use>> uses;  // by predicted index
};

ExamplePrefixFinder::ExamplePrefixFinder(const LrGrammar& grammar, const GrammarSets& sets,
                                         const Lr0Automaton& lr0)
    : grammar_(grammar),
      sets_(sets),
      lr0_(lr0),
      state_index_(lr0.num_states()),
      distance_from_start_(yield_distances_from_start(lr0, sets).distance) {}

ExamplePrefixFinder::~ExamplePrefixFinder() = default;

const ExamplePrefixFinder::StateIndex& ExamplePrefixFinder::index_of(StateId state) {
  std::unique_ptr<StateIndex>& index = state_index_[state];
  if (index) return *index;
  index = std::make_unique<StateIndex>();
  const std::span<const Item> kernel = lr0_.kernel(state);
  const std::span<const SymbolId> predicted = lr0_.predicted(state);
  auto predicted_index = [&](SymbolId nonterminal) {
    return static_cast<std::uint32_t>(
        std::lower_bound(predicted.begin(), predicted.end(), nonterminal) - predicted.begin());
  };
  index->uses.resize(predicted.size());
  std::vector<Item> closure;
  lr0_.closure(grammar_, state, closure);
  for (std::size_t i = 0; i < closure.size(); ++i) {
    const Item item = closure[i];
    const std::span<const SymbolId> rhs = grammar_.rhs(item.rule);
    if (item.dot == rhs.size() || grammar_.is_terminal(rhs[item.dot])) continue;
    StateIndex::Use use;
    use.slot = i < kernel.size() ? static_cast<std::uint32_t>(i)
                                 : static_cast<std::uint32_t>(kernel.size()) +
                                       predicted_index(grammar_.lhs(item.rule));
    use.rest_first.resize(grammar_.num_terminals());
    use.rest_nullable = sets_.add_first_of_sequence(rhs.subspan(item.dot + 1), use.rest_first);
    index->uses[predicted_index(rhs[item.dot])].push_back(std::move(use));
  }
  return *index;
}

std::optional<std::vector<SymbolId>> ExamplePrefixFinder::find(std::span<const PrefixGoal> goals,
                                                               std::uint64_t max_length) {
  const SymbolId any = grammar_.num_terminals();
  std::unordered_map<Node, Visit, NodeHash> visits;
  std::vector<Node> nodes;
  // (cost + distance of the node's state from the start, index into nodes)
  using Entry = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;

  auto kernel_size = [&](StateId state) {
    return static_cast<std::uint32_t>(lr0_.kernel(state).size());
  };
  // The node standing for `item` of `state` (a kernel item, or the predicted nonterminal of an
  // initial item); nullopt when the item is not in the state.
  auto node_of = [&](StateId state, Item item, SymbolId lookahead) -> std::optional<Node> {
    const std::span<const Item> kernel = lr0_.kernel(state);
    const auto in_kernel = std::lower_bound(kernel.begin(), kernel.end(), item);
    if (in_kernel != kernel.end() && *in_kernel == item) {
      return Node{state, static_cast<std::uint32_t>(in_kernel - kernel.begin()), lookahead};
    }
    if (item.dot != 0) return std::nullopt;
    const std::span<const SymbolId> predicted = lr0_.predicted(state);
    const SymbolId lhs = grammar_.lhs(item.rule);
    const auto it = std::lower_bound(predicted.begin(), predicted.end(), lhs);
    if (it == predicted.end() || *it != lhs) return std::nullopt;
    return Node{state, kernel_size(state) + static_cast<std::uint32_t>(it - predicted.begin()),
                lookahead};
  };
  auto relax = [&](const Node& node, std::uint64_t cost, const Node& toward_goal,
                   SymbolId crossed) {
    const std::uint64_t rest = distance_from_start_[node.state];
    if (rest == GrammarSets::kUnproductive) return;
    auto [it, added] = visits.try_emplace(node);
    if (!added && (it->second.settled || it->second.cost <= cost)) return;
    it->second = Visit{cost, toward_goal, crossed, false};
    nodes.push_back(node);
    queue.emplace(cost + rest, nodes.size() - 1);
  };
  // Follows the path from the root back to a goal, expanding each symbol read on the way.
  auto spell = [&](Node node) {
    std::vector<SymbolId> prefix;
    while (true) {
      const Visit& visit = visits.at(node);
      if (visit.toward_goal == node) break;  // a goal points to itself
      if (visit.crossed != kNoSymbol) sets_.append_shortest_yield(grammar_, visit.crossed, prefix);
      node = visit.toward_goal;
    }
    return prefix;
  };

  for (const PrefixGoal& goal : goals) {
    const std::optional<Node> node =
        node_of(goal.state, goal.item, goal.lookahead == kNoSymbol ? any : goal.lookahead);
    if (node) relax(*node, 0, *node, kNoSymbol);
  }
  while (!queue.empty()) {
    const auto [estimate, position] = queue.top();
    queue.pop();
    const Node node = nodes[position];
    std::uint64_t cost = 0;
    {
      Visit& visit = visits.at(node);
      cost = visit.cost;
      if (visit.settled || estimate != cost + distance_from_start_[node.state]) continue;
      if (estimate > max_length) return std::nullopt;
      visit.settled = true;
    }
    const std::uint32_t kernel_count = kernel_size(node.state);
    if (node.slot < kernel_count) {
      const Item item = lr0_.kernel(node.state)[node.slot];
      if (item.dot == 0) {
        // Only `$accept -> . start $END` of the start state has its dot at 0 in a kernel: the
        // root of every derivation, valid for no particular lookahead.
        if (node.lookahead == any) return spell(node);
        continue;
      }
      // [A -> α X . β, a] in q comes from [A -> α . X β, a] in every predecessor of q.
      const SymbolId crossed = grammar_.rhs(item.rule)[item.dot - 1];
      const std::uint64_t length = sets_.shortest_yield_length(crossed);
      if (length == GrammarSets::kUnproductive) continue;
      for (StateId predecessor : lr0_.predecessors(node.state)) {
        const std::optional<Node> previous =
            node_of(predecessor, Item{item.rule, item.dot - 1}, node.lookahead);
        if (previous) relax(*previous, cost + length, node, crossed);
      }
      continue;
    }
    // [A -> . ω, a] in q comes from every [B -> γ . A δ, b] in q with a in FIRST(δ) (any b) or
    // δ nullable (b = a).
    for (const StateIndex::Use& use : index_of(node.state).uses[node.slot - kernel_count]) {
      SymbolId needed = any;
      if (node.lookahead != any && !use.rest_first.test(node.lookahead)) {
        if (!use.rest_nullable) continue;
        needed = node.lookahead;
      }
      relax(Node{node.state, use.slot, needed}, cost, node, kNoSymbol);
    }
  }
  return std::nullopt;
}

}  // namespace glrmask::glr
