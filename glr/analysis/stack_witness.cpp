#include "glr/analysis/stack_witness.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <tuple>
#include <utility>

#include "glr/analysis/yield_distances.h"
#include "lib/core/error.h"

namespace glrmask::glr {

namespace {

std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  return (a == StackWitness::kUnreachable || b == StackWitness::kUnreachable)
             ? StackWitness::kUnreachable
             : a + b;
}

}  // namespace

StackWitness::StackWitness(const LalrAutomaton& automaton) : automaton_(automaton) {
  const LrGrammar& grammar = automaton.grammar();
  const GrammarSets& sets = automaton.sets();
  const Lr0Automaton& lr0 = automaton.lr0();
  const std::uint32_t num_states = lr0.num_states();

  // Shortest rules, Knuth's way: a nonterminal is settled at its least cost, from a rule whose
  // right-hand side is settled already, so the choices never form a cycle.
  shortest_rule_.assign(grammar.num_symbols(), kNoRule);
  {
    std::vector<std::uint32_t> unsettled(grammar.num_rules(), 0);
    std::vector<std::vector<RuleId>> uses(grammar.num_symbols());
    using Entry = std::tuple<std::uint64_t, RuleId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    std::vector<std::uint64_t> cost(grammar.num_rules(), 0);
    std::vector<char> settled(grammar.num_symbols(), 0);
    for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
      for (const SymbolId symbol : grammar.rhs(rule)) {
        if (grammar.is_terminal(symbol)) {
          ++cost[rule];
        } else {
          ++unsettled[rule];
          uses[symbol].push_back(rule);
        }
      }
      if (unsettled[rule] == 0) queue.emplace(cost[rule], rule);
    }
    while (!queue.empty()) {
      const auto [rule_cost, rule] = queue.top();
      queue.pop();
      const SymbolId lhs = grammar.lhs(rule);
      if (settled[lhs]) continue;
      settled[lhs] = 1;
      shortest_rule_[lhs] = rule;
      for (const RuleId user : uses[lhs]) {
        cost[user] += rule_cost;
        if (--unsettled[user] == 0) queue.emplace(cost[user], user);
      }
    }
  }

  // Distances from the start state over transitions weighted by shortest yields
  // (kUnproductive, the same value as kUnreachable, where none).
  static_assert(GrammarSets::kUnproductive == kUnreachable);
  YieldDistances from_start = yield_distances_from_start(lr0, sets);
  distance_ = std::move(from_start.distance);
  parent_ = std::move(from_start.parent);
  // Completion bounds: a kernel item [A -> α . β] of s is finished by β's shortest yield, then
  // the goto on A from a state |α| below s, whose own bound follows (a fixed point, min-plus).
  {
    struct Finish {
      StateId state;
      std::uint64_t cost;
      std::vector<StateId> gotos;
    };
    std::vector<Finish> finishes;
    for (StateId state = 1; state < num_states; ++state) {
      for (const Item& item : lr0.kernel(state)) {
        if (item.rule == grammar.accept_rule()) continue;
        std::uint64_t cost = 0;
        const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
        for (std::uint32_t k = item.dot; k < rhs.size(); ++k)
          cost = add(cost, sets.shortest_yield_length(rhs[k]));
        std::vector<StateId> below{state};
        for (std::uint32_t k = 0; k < item.dot; ++k) {
          std::vector<StateId> next;
          for (const StateId b : below)
            for (const StateId p : lr0.predecessors(b)) next.push_back(p);
          std::sort(next.begin(), next.end());
          next.erase(std::unique(next.begin(), next.end()), next.end());
          below = std::move(next);
        }
        Finish finish{state, cost, {}};
        for (const StateId b : below) {
          const StateId target = lr0.transition(b, grammar.lhs(item.rule));
          if (target != kNoState) finish.gotos.push_back(target);
        }
        finishes.push_back(std::move(finish));
      }
    }
    completion_bound_.assign(num_states, kUnreachable);
    completion_bound_[lr0.accept_state()] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (const Finish& finish : finishes) {
        for (const StateId target : finish.gotos) {
          const std::uint64_t candidate = add(finish.cost, completion_bound_[target]);
          if (candidate < completion_bound_[finish.state]) {
            completion_bound_[finish.state] = candidate;
            changed = true;
          }
        }
      }
    }
    const StateId after_start = lr0.transition(0, grammar.start_symbol());
    if (after_start != kNoState)
      completion_bound_[0] =
          add(sets.shortest_yield_length(grammar.start_symbol()), completion_bound_[after_start]);
  }

  below_cost_.assign(num_states, 0);
  for (StateId state = 1; state < num_states; ++state) {
    std::uint64_t best = kUnreachable;
    for (const StateId p : lr0.predecessors(state)) best = std::min(best, distance_[p]);
    below_cost_[state] = best;
  }
}

std::vector<StateId> StackWitness::shortest_path(StateId state) const {
  std::vector<StateId> path;
  for (StateId s = state; s != kNoState; s = parent_[s]) {
    path.push_back(s);
    if (s == 0) break;
  }
  std::reverse(path.begin(), path.end());
  if (path.empty() || path.front() != 0)
    throw Error(fmt::format("internal error: LR state {} is not reachable", state),
                ErrorCode::kInternal);
  return path;
}

std::optional<std::vector<ReplayStep>> StackWitness::complete(
    std::span<const StateId> stack) const {
  const LrGrammar& grammar = automaton_.grammar();
  const GrammarSets& sets = automaton_.sets();
  const Lr0Automaton& lr0 = automaton_.lr0();
  if (stack.empty() || stack.front() != 0)
    throw Error("internal error: a stack must start at 0", ErrorCode::kInternal);
  // Node (length, top): the stack is stack[0 .. length-1) followed by `top`.
  using Node = std::pair<std::uint32_t, StateId>;
  struct Parent {
    Node from;
    RuleId rule;
    std::uint32_t dot;
  };
  std::map<Node, std::uint64_t> best;
  std::map<Node, Parent> parent;
  using Entry = std::tuple<std::uint64_t, std::uint32_t, StateId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  const Node first{static_cast<std::uint32_t>(stack.size()), stack.back()};
  best[first] = 0;
  queue.emplace(0, first.first, first.second);
  std::optional<Node> done;
  const SymbolId start_symbol = grammar.start_symbol();
  while (!queue.empty()) {
    const auto [cost, length, top] = queue.top();
    queue.pop();
    const Node node{length, top};
    if (best[node] != cost) continue;
    if (length == 2 && lr0.accepts(top)) {
      done = node;
      break;
    }
    auto relax = [&](Node next, std::uint64_t step, RuleId rule, std::uint32_t dot) {
      const std::uint64_t total = add(cost, step);
      if (total == kUnreachable) return;
      auto it = best.find(next);
      if (it != best.end() && it->second <= total) return;
      best[next] = total;
      parent[next] = {node, rule, dot};
      queue.emplace(total, next.first, next.second);
    };
    if (length == 1) {  // only the start state: derive the start symbol
      relax({2, lr0.transition(0, start_symbol)}, sets.shortest_yield_length(start_symbol), kNoRule,
            0);
      continue;
    }
    for (const Item& item : lr0.kernel(top)) {
      const std::uint32_t m = item.dot;  // the item's α covers the top m states
      if (m == 0 || m >= length || item.rule == grammar.accept_rule()) continue;
      std::uint64_t step = 0;
      const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
      for (std::uint32_t k = item.dot; k < rhs.size(); ++k)
        step = add(step, sets.shortest_yield_length(rhs[k]));
      const std::uint32_t remaining = length - m;  // states left below: stack[0 .. remaining)
      const StateId below = stack[remaining - 1];
      const StateId target = lr0.transition(below, grammar.lhs(item.rule));
      if (target == kNoState) continue;
      relax({remaining + 1, target}, step, item.rule, item.dot);
    }
  }
  if (!done) return std::nullopt;
  // Walk back: each step pushes the rest of its item's right-hand side and reduces.
  std::vector<std::vector<ReplayStep>> pieces;
  for (Node node = *done; node != first;) {
    const Parent& p = parent.at(node);
    std::vector<ReplayStep> piece;
    if (p.rule == kNoRule) {
      piece.push_back(ReplayStep::push(start_symbol));
    } else {
      const std::span<const SymbolId> rhs = grammar.rhs(p.rule);
      for (std::uint32_t k = p.dot; k < rhs.size(); ++k) piece.push_back(ReplayStep::push(rhs[k]));
      piece.push_back(ReplayStep::reduce(p.rule));
    }
    pieces.push_back(std::move(piece));
    node = p.from;
  }
  std::vector<ReplayStep> steps;
  for (auto it = pieces.rbegin(); it != pieces.rend(); ++it)
    steps.insert(steps.end(), it->begin(), it->end());
  return steps;
}

TreeRef StackWitness::shortest_tree(SymbolId symbol, std::uint32_t& position) const {
  const LrGrammar& grammar = automaton_.grammar();
  auto tree = std::make_shared<DerivationTree>();
  tree->symbol = symbol;
  tree->start = position;
  if (grammar.is_terminal(symbol)) {
    tree->end = ++position;
    return tree;
  }
  const RuleId rule = shortest_rule_[symbol];
  if (rule == kNoRule)
    throw Error(fmt::format("internal error: {} derives nothing", grammar.name(symbol)),
                ErrorCode::kInternal);
  tree->rule = rule;
  for (const SymbolId child : grammar.rhs(rule))
    tree->children.push_back(shortest_tree(child, position));
  tree->end = position;
  return tree;
}

std::vector<TreeRef> StackWitness::replay(std::span<const ReplayStep> steps) const {
  const LrGrammar& grammar = automaton_.grammar();
  std::vector<TreeRef> stack;
  std::uint32_t position = 0;
  for (const ReplayStep& step : steps) {
    if (step.kind == ReplayStep::Kind::kPush) {
      stack.push_back(shortest_tree(step.id, position));
      continue;
    }
    const RuleId rule = step.id;
    const std::span<const SymbolId> rhs = grammar.rhs(rule);
    if (stack.size() < rhs.size())
      throw Error("internal error: a counterexample replay reduces more trees than it has",
                  ErrorCode::kInternal);
    auto tree = std::make_shared<DerivationTree>();
    tree->symbol = grammar.lhs(rule);
    tree->rule = rule;
    tree->children.assign(stack.end() - static_cast<std::ptrdiff_t>(rhs.size()), stack.end());
    stack.resize(stack.size() - rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) {
      if (tree->children[k]->symbol != rhs[k])
        throw Error("internal error: a counterexample replay reduces the wrong symbols",
                    ErrorCode::kInternal);
    }
    tree->start = tree->children.empty() ? position : tree->children.front()->start;
    tree->end = position;
    stack.push_back(std::move(tree));
  }
  return stack;
}

}  // namespace glrmask::glr
