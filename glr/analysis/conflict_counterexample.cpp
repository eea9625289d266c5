#include "glr/analysis/conflict_counterexample.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "glr/analysis/forest_parser.h"
#include "lib/core/error.h"

namespace glrmask::glr {

namespace {

// Persistent lists, so that configurations share their histories.
struct StepNode {
  ReplayStep step;
  std::shared_ptr<const StepNode> previous;
};
using Steps = std::shared_ptr<const StepNode>;

Steps append(Steps steps, ReplayStep step) {
  return std::make_shared<const StepNode>(StepNode{step, std::move(steps)});
}

std::vector<ReplayStep> in_order(const Steps& steps) {
  std::vector<ReplayStep> out;
  for (const StepNode* node = steps.get(); node != nullptr; node = node->previous.get())
    out.push_back(node->step);
  std::reverse(out.begin(), out.end());
  return out;
}

struct RevealNode {
  StateId state;
  std::shared_ptr<const RevealNode> above;  // the state revealed before this one
};
using Reveals = std::shared_ptr<const RevealNode>;

// One simulated parser: its stack is (unknown below) base[0 .. keep) + pushed.
struct Side {
  std::uint32_t keep = 1;
  std::vector<StateId> pushed;
  bool accepted = false;
  bool done = false;  // has read the current lookahead (shifted it, or accepted)
  Steps steps;
};

// Two parsers that read the same terminals since the conflict, over one shared stack below it.
// Between terminals (`lookahead` empty) both have read the same `consumed` terminals; while one
// terminal is being read, side 0 moves first until done, then side 1.
struct Config {
  std::vector<StateId> base;  // revealed states of the shared stack, bottom first
  bool at_bottom = false;     // base[0] is the start state: nothing lies below
  Side side[2];
  Reveals revealed;               // every state revealed below the conflict state, deepest first
  std::uint64_t prefix_cost = 0;  // shortest yields of the revealed states' symbols
  std::uint32_t consumed = 0;     // terminals read since the conflict (its lookahead included)
  std::optional<SymbolId> lookahead;  // the terminal being read
};

constexpr std::size_t kMaxStack = 48;  // base and pushed states per configuration

// The moves of the two parsers, one at a time (a reduction, with the states it reveals, or a
// shift), so that both searches can order and bound them.
class PairSearch {
 public:
  PairSearch(const LalrAutomaton& automaton, const StackWitness& witness, const Conflict& conflict,
             std::chrono::steady_clock::time_point deadline)
      : automaton_(automaton),
        grammar_(automaton.grammar()),
        lr0_(automaton.lr0()),
        table_(automaton.table(ConflictPolicy::kKeepAll)),
        witness_(witness),
        conflict_(conflict),
        deadline_(deadline) {}

  Config initial() const {
    Config c;
    c.base = {conflict_.state};
    c.at_bottom = conflict_.state == 0;
    c.prefix_cost = symbol_cost(conflict_.state);
    c.lookahead = conflict_.lookahead;
    return c;
  }

  // Both sides take their action at the conflict (moves still to make follow with step()).
  std::vector<Config> start(Action first, Action second) {
    std::vector<Config> after_first;
    apply(initial(), 0, first, after_first);
    std::vector<Config> result;
    for (const Config& c : after_first) apply(c, 1, second, result);
    return result;
  }

  // The configurations one move after `c`: between terminals, one per terminal both sides may
  // read next; while reading, one per action of the side whose turn it is.
  void step(const Config& c, std::vector<Config>& out) {
    if (!c.lookahead) {
      if (both_accepted(c)) return;
      for (const SymbolId t : common_terminals(c)) {
        Config next = c;
        next.lookahead = t;
        next.side[0].done = next.side[1].done = false;
        out.push_back(std::move(next));
      }
      return;
    }
    const int i = c.side[0].done ? 1 : 0;
    for (const Action action : table_.actions(top(c, i), *c.lookahead)) apply(c, i, action, out);
  }

  // Side i takes `action` on the current lookahead.
  void apply(const Config& c, int i, Action action, std::vector<Config>& out) {
    ++moves_;
    const SymbolId t = *c.lookahead;
    if (action.is_shift() || action.is_accept()) {
      Config next = c;
      Side& side = next.side[i];
      if (action.is_shift()) {
        side.pushed.push_back(action.target());
        side.steps = append(side.steps, ReplayStep::push(t));
      } else {
        side.accepted = true;
      }
      side.done = true;
      if (!fits(next)) return;
      if (next.side[0].done && next.side[1].done) {
        if (t != grammar_.end_of_input()) ++next.consumed;
        next.lookahead.reset();
      }
      out.push_back(std::move(next));
      return;
    }
    reduce(c, i, action.rule(), out);
  }

  // Every configuration side i alone reaches from `c` by reductions on t and the shift of t (or
  // the accept action): used to write out the witnesses of lookahead separation.
  void closure(Config c, int i, SymbolId t, std::vector<Config>& out) {
    c.lookahead = t;
    c.side[i].done = false;
    c.side[1 - i].done = true;  // the other side does not move
    std::vector<Config> work{std::move(c)};
    std::unordered_set<std::string> seen;
    std::size_t budget = 20000;
    while (!work.empty() && budget-- > 0) {
      Config d = std::move(work.back());
      work.pop_back();
      if (d.side[i].done || !d.lookahead) {
        out.push_back(std::move(d));
        continue;
      }
      std::vector<Config> next;
      for (const Action action : table_.actions(top(d, i), t)) apply(d, i, action, next);
      for (Config& n : next)
        if (seen.insert(key(n)).second) work.push_back(std::move(n));
    }
  }

  static bool converged(const Config& c) {
    return !c.lookahead && !c.side[0].accepted && !c.side[1].accepted &&
           c.side[0].keep == c.side[1].keep && c.side[0].pushed == c.side[1].pushed;
  }
  static bool both_accepted(const Config& c) {
    return !c.lookahead && c.side[0].accepted && c.side[1].accepted;
  }
  static bool between_terminals(const Config& c) { return !c.lookahead; }

  // Terminals some action of both sides' top states reads (a side that will read t has an
  // action on t in its current top state).
  std::vector<SymbolId> common_terminals(const Config& c) const {
    std::vector<SymbolId> result;
    if (c.side[0].accepted || c.side[1].accepted) return result;
    const StateId a = top(c, 0);
    const StateId b = top(c, 1);
    std::uint32_t i = table_.row_begin(a);
    std::uint32_t j = table_.row_begin(b);
    while (i < table_.row_end(a) && j < table_.row_end(b)) {
      const SymbolId x = table_.cell_terminal(i);
      const SymbolId y = table_.cell_terminal(j);
      if (x < y) {
        ++i;
      } else if (y < x) {
        ++j;
      } else {
        result.push_back(x);
        ++i;
        ++j;
      }
    }
    return result;
  }

  std::string key(const Config& c) const {
    std::vector<std::uint32_t> words;
    words.reserve(10 + c.base.size() + c.side[0].pushed.size() + c.side[1].pushed.size());
    words.push_back((c.at_bottom ? 1u : 0u) | (c.lookahead ? 2u : 0u));
    words.push_back(c.lookahead ? *c.lookahead : 0);
    words.push_back(static_cast<std::uint32_t>(c.base.size()));
    words.insert(words.end(), c.base.begin(), c.base.end());
    for (const Side& s : c.side) {
      words.push_back(s.keep | (s.accepted ? 0x80000000u : 0) | (s.done ? 0x40000000u : 0));
      words.push_back(static_cast<std::uint32_t>(s.pushed.size()));
      words.insert(words.end(), s.pushed.begin(), s.pushed.end());
    }
    return std::string(reinterpret_cast<const char*>(words.data()),
                       words.size() * sizeof(std::uint32_t));
  }

  // A lower bound on the length of any sentence this configuration can still lead to: the text
  // of the revealed stack, a shortest text below it, what was read, and what each side must
  // still read to accept (both read the same terminals, so the larger of the two).
  std::uint64_t priority(const Config& c) const {
    std::uint64_t rest = 0;
    for (int i = 0; i < 2; ++i)
      if (!c.side[i].accepted) rest = std::max(rest, witness_.completion_bound(top(c, i)));
    return c.prefix_cost + c.consumed + (c.at_bottom ? 0 : witness_.below_cost(c.base.front())) +
           rest;
  }

  StateId top(const Config& c, int i) const {
    const Side& s = c.side[i];
    return s.pushed.empty() ? c.base[s.keep - 1] : s.pushed.back();
  }

  bool timed_out() {
    if ((++clock_checks_ & 63) != 0) return timed_out_;
    timed_out_ = timed_out_ || std::chrono::steady_clock::now() > deadline_;
    return timed_out_;
  }
  bool truncated() const { return truncated_; }
  std::uint64_t moves() const { return moves_; }

  // The stack of side i, bottom first, with a shortest path below the revealed states.
  std::vector<StateId> full_stack(const Config& c, int i) const {
    std::vector<StateId> stack = witness_.shortest_path(c.base.front());
    stack.insert(stack.end(), c.base.begin() + 1, c.base.begin() + c.side[i].keep);
    stack.insert(stack.end(), c.side[i].pushed.begin(), c.side[i].pushed.end());
    return stack;
  }

  // The stack both sides started from (the conflict state on top), bottom first.
  std::vector<StateId> original_stack(const Config& c) const {
    std::vector<StateId> chain;
    for (const RevealNode* node = c.revealed.get(); node != nullptr; node = node->above.get())
      chain.push_back(node->state);
    chain.push_back(conflict_.state);
    std::vector<StateId> stack = witness_.shortest_path(chain.front());
    stack.insert(stack.end(), chain.begin() + 1, chain.end());
    return stack;
  }

  // Side i's whole derivation: the original stack's symbols as shortest trees, the side's moves,
  // then `completion`; with the position of the conflict's lookahead in the sentence.
  WitnessDerivation derivation(const Config& c, int i, Action action,
                               const std::vector<ReplayStep>& completion,
                               std::size_t* conflict_position) const {
    std::vector<ReplayStep> steps;
    std::size_t position = 0;
    const std::vector<StateId> original = original_stack(c);
    for (std::size_t k = 1; k < original.size(); ++k) {
      const SymbolId symbol = lr0_.accessing_symbol(original[k]);
      steps.push_back(ReplayStep::push(symbol));
      position += automaton_.sets().shortest_yield_length(symbol);
    }
    if (conflict_position != nullptr) *conflict_position = position;
    const std::vector<ReplayStep> moves = in_order(c.side[i].steps);
    steps.insert(steps.end(), moves.begin(), moves.end());
    steps.insert(steps.end(), completion.begin(), completion.end());
    const std::vector<TreeRef> trees = witness_.replay(steps);
    if (trees.size() != 1 || trees.front()->symbol != grammar_.start_symbol())
      throw Error("internal error: a counterexample does not derive the start symbol",
                  ErrorCode::kInternal);
    WitnessDerivation result;
    result.action = action;
    result.tree = trees.front();
    result.sentence = tree_yield(*result.tree);
    return result;
  }

  // A completion of side i's stack (nothing when it accepted).
  std::optional<std::vector<ReplayStep>> completion(const Config& c, int i) const {
    if (c.side[i].accepted) return std::vector<ReplayStep>{};
    return witness_.complete(full_stack(c, i));
  }

  // The length of the sentence a successful configuration gives, or nullopt.
  std::optional<std::uint64_t> success_length(const Config& c) const {
    if (both_accepted(c)) return c.prefix_cost + c.consumed;
    if (!converged(c)) return std::nullopt;
    const auto steps = completion(c, 0);
    if (!steps) return std::nullopt;
    std::uint64_t length =
        c.prefix_cost + c.consumed + (c.at_bottom ? 0 : witness_.below_cost(c.base.front()));
    for (const ReplayStep& step : *steps)
      if (step.kind == ReplayStep::Kind::kPush)
        length += automaton_.sets().shortest_yield_length(step.id);
    return length;
  }

 private:
  std::uint64_t symbol_cost(StateId state) const {
    return state == 0 ? 0 : automaton_.sets().shortest_yield_length(lr0_.accessing_symbol(state));
  }

  bool fits(const Config& c) {
    if (c.base.size() <= kMaxStack && c.side[0].pushed.size() <= kMaxStack &&
        c.side[1].pushed.size() <= kMaxStack)
      return true;
    truncated_ = true;
    return false;
  }

  // Drops revealed states that neither side holds any more (the stack above both).
  static void trim(Config& c) { c.base.resize(std::max(c.side[0].keep, c.side[1].keep)); }

  // Reveals n more states below base[0], one configuration per choice of predecessors.
  void reveal(const Config& c, std::uint32_t n, std::vector<Config>& out) {
    if (n == 0) {
      out.push_back(c);
      return;
    }
    if (c.at_bottom) return;  // nothing below the start state
    for (const StateId p : lr0_.predecessors(c.base.front())) {
      if (witness_.distance(p) == StackWitness::kUnreachable) continue;
      Config next = c;
      next.base.insert(next.base.begin(), p);
      ++next.side[0].keep;
      ++next.side[1].keep;
      next.at_bottom = p == 0;
      next.prefix_cost += symbol_cost(p);
      next.revealed = std::make_shared<const RevealNode>(RevealNode{p, c.revealed});
      if (!fits(next)) continue;
      reveal(next, n - 1, out);
    }
  }

  // Side i reduces by `rule`: pops its right-hand side (revealing states when it runs below the
  // base) and takes the goto.
  void reduce(const Config& c, int i, RuleId rule, std::vector<Config>& out) {
    const std::uint32_t m = grammar_.rhs_length(rule);
    Config popped = c;
    Side& side = popped.side[i];
    std::vector<Config> after_pop;
    if (m <= side.pushed.size()) {
      side.pushed.resize(side.pushed.size() - m);
      // An empty `pushed` leaves base[keep - 1] on top: keep >= 1 always holds.
      after_pop.push_back(std::move(popped));
    } else {
      const auto from_base = static_cast<std::uint32_t>(m - side.pushed.size());
      side.pushed.clear();
      if (side.keep > from_base) {
        side.keep -= from_base;
        after_pop.push_back(std::move(popped));
      } else {
        const std::uint32_t need = from_base - side.keep + 1;
        std::vector<Config> revealed;
        reveal(popped, need, revealed);
        for (Config& r : revealed) {
          r.side[i].keep -= from_base;
          after_pop.push_back(std::move(r));
        }
      }
    }
    const SymbolId lhs = grammar_.lhs(rule);
    for (Config& r : after_pop) {
      const StateId target = table_.goto_state(top(r, i), lhs);
      if (target == kNoState) continue;
      r.side[i].pushed.push_back(target);
      r.side[i].steps = append(r.side[i].steps, ReplayStep::reduce(rule));
      trim(r);
      if (fits(r)) out.push_back(std::move(r));
    }
  }

  const LalrAutomaton& automaton_;
  const LrGrammar& grammar_;
  const Lr0Automaton& lr0_;
  const LrTable& table_;
  const StackWitness& witness_;
  const Conflict& conflict_;
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t moves_ = 0;
  std::uint64_t clock_checks_ = 0;
  bool timed_out_ = false;
  bool truncated_ = false;
};

// The outcome of the searches for one pair of actions.
struct PairResult {
  std::optional<std::pair<WitnessDerivation, WitnessDerivation>> unifying;
  std::size_t unifying_position = 0;
  std::optional<std::pair<WitnessDerivation, WitnessDerivation>> separated;
  std::size_t separated_position = 0;
  std::uint32_t separating_k = 0;
  std::uint32_t levels_checked = 0;
  std::uint64_t length_searched = 0;
  bool exhausted = false;  // the unifying search explored every pair of stacks
  bool budget = false;
  std::uint64_t configurations = 0;
};

void check_unifying(const LalrAutomaton& automaton, const WitnessDerivation& a,
                    const WitnessDerivation& b, std::optional<DerivationCount>& trees) {
  if (a.sentence != b.sentence)
    throw Error("internal error: a unifying counterexample's derivations differ in their text",
                ErrorCode::kInternal);
  const std::optional<ForestParse> parse =
      parse_terminals(automaton.table(ConflictPolicy::kKeepAll), a.sentence);
  if (!parse || !forest_contains(parse->forest, *a.tree) ||
      !forest_contains(parse->forest, *b.tree) || same_tree(*a.tree, *b.tree) ||
      !is_valid_derivation(automaton.grammar(), *a.tree) ||
      !is_valid_derivation(automaton.grammar(), *b.tree))
    throw Error("internal error: a unifying counterexample failed the check on its forest",
                ErrorCode::kInternal);
  trees = parse->derivations;
}

void check_sentence(const LalrAutomaton& automaton, const WitnessDerivation& d) {
  const std::optional<ForestParse> parse =
      parse_terminals(automaton.table(ConflictPolicy::kKeepAll), d.sentence);
  if (!parse || !forest_contains(parse->forest, *d.tree) ||
      !is_valid_derivation(automaton.grammar(), *d.tree))
    throw Error("internal error: a lookahead witness failed the check on its forest",
                ErrorCode::kInternal);
}

// Lookahead separation: level k holds every pair of configurations that read the same k
// terminals from the conflict on, in every context; the first empty level is the lookahead that
// separates the actions. Stops at max_lookahead, at the budget, or at a success (returned).
std::optional<Config> separate(PairSearch& search, const CounterexampleOptions& options,
                               Action first, Action second, std::uint64_t budget,
                               std::chrono::steady_clock::time_point deadline,
                               const LalrAutomaton& automaton, PairResult& result) {
  std::vector<Config> before{search.initial()};
  std::vector<Config> pending = search.start(first, second);
  std::uint64_t explored = 0;
  bool stopped = false;
  for (std::uint32_t k = 1;; ++k) {
    // Every configuration of level k: the moves from the pending ones up to the next boundary.
    std::vector<Config> level;
    std::unordered_set<std::string> seen;
    while (!pending.empty()) {
      Config c = std::move(pending.back());
      pending.pop_back();
      if (PairSearch::between_terminals(c)) {
        if (PairSearch::both_accepted(c) || PairSearch::converged(c)) {
          result.configurations += explored;
          return c;
        }
        level.push_back(std::move(c));
        continue;
      }
      if (++explored > budget || std::chrono::steady_clock::now() > deadline) {
        stopped = true;
        break;
      }
      std::vector<Config> next;
      search.step(c, next);
      for (Config& n : next)
        if (seen.insert(search.key(n)).second) pending.push_back(std::move(n));
    }
    result.configurations += explored;
    explored = 0;
    if (stopped || search.truncated()) {
      result.budget = true;
      return std::nullopt;
    }
    if (level.empty()) {
      result.separating_k = k;
      break;
    }
    result.levels_checked = k;
    if (k >= options.max_lookahead) return std::nullopt;
    for (const Config& c : level) search.step(c, pending);
    before = std::move(level);
  }
  // Two sentences: the same context and the same k-1 terminals after the conflict, then each
  // side's own next terminal (k = 1: each side in its own context).
  const std::uint32_t k = result.separating_k;
  for (const Config& c : before) {
    std::optional<WitnessDerivation> sides[2];
    std::size_t position = 0;
    for (int i = 0; i < 2; ++i) {
      const Action action = i == 0 ? first : second;
      std::vector<Config> moved;
      if (k == 1) {
        std::vector<Config> acted;
        Config alone = c;
        alone.side[1 - i].done = true;
        search.apply(alone, i, action, acted);
        for (const Config& a : acted) {
          if (a.side[i].done || !a.lookahead)
            moved.push_back(a);
          else
            search.closure(a, i, *a.lookahead, moved);
        }
      } else {
        for (SymbolId t = 0; t < automaton.grammar().num_terminals() && moved.empty(); ++t)
          search.closure(c, i, t, moved);
      }
      for (const Config& m : moved) {
        if (!m.side[i].done && m.lookahead) continue;
        const auto completion = search.completion(m, i);
        if (!completion) continue;
        sides[i] = search.derivation(m, i, action, *completion, i == 0 ? &position : nullptr);
        break;
      }
    }
    if (sides[0] && sides[1]) {
      check_sentence(automaton, *sides[0]);
      check_sentence(automaton, *sides[1]);
      result.separated = std::make_pair(*sides[0], *sides[1]);
      result.separated_position = position;
      return std::nullopt;
    }
  }
  result.separating_k = 0;  // no witness could be written out
  return std::nullopt;
}

// The shortest unifying counterexample: Dijkstra over the moves of pairs of stacks, each
// configuration's priority a lower bound on the sentences it leads to.
std::optional<Config> unify(PairSearch& search, const CounterexampleOptions& options, Action first,
                            Action second, std::uint64_t budget, PairResult& result) {
  struct Entry {
    std::uint64_t priority;
    std::uint64_t order;
    std::size_t index;
    bool final;
    // On equal priority a finished counterexample comes first: nothing can beat it.
    bool operator>(const Entry& other) const {
      return std::make_tuple(priority, !final, order) >
             std::make_tuple(other.priority, !other.final, other.order);
    }
  };
  std::vector<Config> configs;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  std::unordered_set<std::string> settled;
  std::uint64_t order = 0;
  bool pruned = false;
  auto push = [&](Config c) {
    if (PairSearch::between_terminals(c)) {
      if (const auto length = search.success_length(c)) {
        if (*length <= options.max_length) {
          configs.push_back(std::move(c));
          queue.push({*length, order++, configs.size() - 1, true});
        } else {
          pruned = true;
        }
        return;
      }
    }
    const std::uint64_t p = search.priority(c);
    if (p > options.max_length) {
      pruned = true;
      return;
    }
    configs.push_back(std::move(c));
    queue.push({p, order++, configs.size() - 1, false});
  };
  for (Config& c : search.start(first, second)) push(std::move(c));
  std::uint64_t explored = 0;
  bool stopped = false;
  std::optional<Config> success;
  result.length_searched = 0;
  while (!queue.empty()) {
    const Entry entry = queue.top();
    queue.pop();
    result.length_searched = entry.priority;
    if (entry.final) {
      success = configs[entry.index];
      break;
    }
    const Config c = configs[entry.index];
    if (!settled.insert(search.key(c)).second) continue;
    if (++explored > budget || search.timed_out()) {
      stopped = true;
      break;
    }
    std::vector<Config> next;
    search.step(c, next);
    for (Config& n : next) push(std::move(n));
  }
  result.configurations += explored;
  if (!success && !stopped) {
    result.length_searched = options.max_length + 1;
    result.exhausted = !pruned && !search.truncated();
  }
  result.budget = result.budget || stopped || search.truncated();
  return success;
}

PairResult search_pair(const LalrAutomaton& automaton, const StackWitness& witness,
                       const CounterexampleOptions& options, const Conflict& conflict, Action first,
                       Action second, std::chrono::steady_clock::time_point deadline) {
  PairResult result;
  const auto now = std::chrono::steady_clock::now();
  // Lookahead separation gets a third of the budget: it decides lookahead-only conflicts
  // quickly, and an ambiguous one can take all the rest.
  const auto separation_deadline = now + (deadline - now) / 3;
  std::optional<Config> found;
  {
    PairSearch search(automaton, witness, conflict, separation_deadline);
    found = separate(search, options, first, second, options.max_configurations / 3,
                     separation_deadline, automaton, result);
    if (result.separating_k > 0) return result;
  }
  PairSearch search(automaton, witness, conflict, deadline);
  std::optional<Config> success =
      unify(search, options, first, second, options.max_configurations, result);
  if (!success) success = found;  // met by the level search, beyond the length bound
  if (success) {
    std::vector<ReplayStep> completion;
    if (!PairSearch::both_accepted(*success)) {
      const auto steps = search.completion(*success, 0);
      if (!steps) return result;
      completion = *steps;
    }
    WitnessDerivation a =
        search.derivation(*success, 0, first, completion, &result.unifying_position);
    WitnessDerivation b = search.derivation(*success, 1, second, completion, nullptr);
    result.unifying = std::make_pair(std::move(a), std::move(b));
    result.exhausted = false;
  }
  return result;
}

std::string sentence_text(std::span<const SymbolId> sentence, std::size_t dot,
                          const std::function<std::string(SymbolId)>& name) {
  std::string text;
  for (std::size_t i = 0; i <= sentence.size(); ++i) {
    if (i == dot) text += text.empty() ? "." : " .";
    if (i == sentence.size()) break;
    text += (text.empty() ? "" : " ") + name(sentence[i]);
  }
  return text;
}

std::string action_label(Action action) {
  return action.is_shift() ? "shift" : action.is_accept() ? "accept" : "reduce";
}

std::string action_text(const LrGrammar& grammar, Action action) {
  if (action.is_shift()) return "shift";
  if (action.is_accept()) return "accept";
  return fmt::format("reduce {}", grammar.rule_text(action.rule()));
}

}  // namespace

CounterexampleFinder::CounterexampleFinder(const LalrAutomaton& automaton)
    : automaton_(automaton), witness_(automaton) {}

ConflictVerdict CounterexampleFinder::classify(const Conflict& conflict,
                                               const CounterexampleOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(options.max_seconds));
  ConflictVerdict verdict;
  verdict.lookahead_separated_up_to = options.max_lookahead;
  verdict.length_searched = options.max_length + 1;
  bool all_separated = true;
  bool all_exhausted = true;
  std::uint32_t worst_k = 0;
  // Every pair of actions; the cell's counterexample is the shortest over the pairs.
  CounterexampleOptions pair_options = options;
  for (std::size_t i = 0; i < conflict.actions.size(); ++i) {
    for (std::size_t j = i + 1; j < conflict.actions.size(); ++j) {
      const PairResult pair = search_pair(automaton_, witness_, pair_options, conflict,
                                          conflict.actions[i], conflict.actions[j], deadline);
      verdict.configurations += pair.configurations;
      verdict.budget_exhausted = verdict.budget_exhausted || pair.budget;
      if (pair.unifying) {
        const bool shorter = verdict.kind != ConflictClass::kAmbiguous ||
                             pair.unifying->first.sentence.size() < verdict.first->sentence.size();
        if (shorter) {
          verdict.kind = ConflictClass::kAmbiguous;
          verdict.first = pair.unifying->first;
          verdict.second = pair.unifying->second;
          verdict.conflict_position = pair.unifying_position;
          // Later pairs need only look for shorter ones.
          if (verdict.first->sentence.size() > 0)
            pair_options.max_length = std::min<std::uint64_t>(pair_options.max_length,
                                                              verdict.first->sentence.size() - 1);
        }
        continue;
      }
      if (pair.separating_k > 0) {
        if (pair.separating_k > worst_k) {
          worst_k = pair.separating_k;
          if (verdict.kind != ConflictClass::kAmbiguous) {
            verdict.first = pair.separated->first;
            verdict.second = pair.separated->second;
            verdict.conflict_position = pair.separated_position;
          }
        }
      } else {
        all_separated = false;
        verdict.lookahead_separated_up_to =
            std::min(verdict.lookahead_separated_up_to, pair.levels_checked);
        verdict.length_searched = std::min(verdict.length_searched, pair.length_searched);
        all_exhausted = all_exhausted && pair.exhausted;
      }
    }
  }
  if (verdict.kind == ConflictClass::kAmbiguous)
    check_unifying(automaton_, *verdict.first, *verdict.second, verdict.trees);
  if (verdict.kind != ConflictClass::kAmbiguous) {
    if (all_separated) {
      verdict.kind = ConflictClass::kNeedsLookahead;
      verdict.lookahead = worst_k;
    } else {
      verdict.first.reset();
      verdict.second.reset();
      verdict.product_exhausted = all_exhausted;
      verdict.kind = all_exhausted ? ConflictClass::kNeedsLookahead : ConflictClass::kUndecided;
    }
  }
  verdict.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return verdict;
}

std::string format_verdict(const LalrAutomaton& automaton, const Conflict& conflict,
                           const ConflictVerdict& verdict, const CounterexampleOptions& options,
                           const std::function<std::string(SymbolId)>& name) {
  (void)conflict;
  const LrGrammar& grammar = automaton.grammar();
  auto tree_text = [&](const TreeRef& tree) { return format_tree_brackets(*tree, grammar, name); };
  std::string text;
  switch (verdict.kind) {
    case ConflictClass::kAmbiguous: {
      const WitnessDerivation& a = *verdict.first;
      const WitnessDerivation& b = *verdict.second;
      text += fmt::format("  verdict ambiguous: {} terminals, {} trees (checked on the forest)\n",
                          a.sentence.size(), verdict.trees ? verdict.trees->str() : "?");
      text += fmt::format("    sentence {}\n",
                          sentence_text(a.sentence, verdict.conflict_position, name));
      text += fmt::format("    {:<6} {}\n", action_label(a.action), tree_text(a.tree));
      text += fmt::format("    {:<6} {}\n", action_label(b.action), tree_text(b.tree));
      break;
    }
    case ConflictClass::kNeedsLookahead: {
      if (verdict.product_exhausted) {
        text += fmt::format(
            "  verdict needs more lookahead: no sentence has two derivations parting here (every "
            "pair of stacks explored), and {} tokens of lookahead do not separate the actions\n",
            verdict.lookahead_separated_up_to);
        break;
      }
      if (verdict.lookahead == 1) {
        text +=
            "  verdict needs no more lookahead: in no context can both actions read the "
            "lookahead (canonical LR(1) has no conflict here; an LALR(1) merge artifact)\n";
      } else {
        text += fmt::format(
            "  verdict needs more lookahead: {} tokens separate the actions (LR({}) here); "
            "the parses agree on {} terminal{} after the conflict, then part\n",
            verdict.lookahead, verdict.lookahead, verdict.lookahead - 1,
            verdict.lookahead == 2 ? "" : "s");
      }
      for (const WitnessDerivation* d : {&*verdict.first, &*verdict.second}) {
        text += fmt::format("    {}\n      {}\n      {}\n", action_text(grammar, d->action),
                            sentence_text(d->sentence, verdict.conflict_position, name),
                            tree_text(d->tree));
      }
      break;
    }
    case ConflictClass::kUndecided: {
      const std::string lookahead =
          verdict.lookahead_separated_up_to == 0
              ? "the lookahead search stopped before both parses read the conflict's lookahead"
              : fmt::format("{} token{} of lookahead do not separate the actions{}",
                            verdict.lookahead_separated_up_to,
                            verdict.lookahead_separated_up_to == 1 ? "" : "s",
                            verdict.lookahead_separated_up_to < options.max_lookahead
                                ? " (search stopped)"
                                : "");
      text += fmt::format(
          "  verdict undecided within the bound: no unifying counterexample of up to {} "
          "terminals{}; {} ({} configurations, {:.2f} s)\n",
          verdict.length_searched > 0 ? verdict.length_searched - 1 : 0,
          verdict.length_searched <= options.max_length ? " (search stopped)" : "", lookahead,
          verdict.configurations, verdict.seconds);
      break;
    }
  }
  return text;
}

}  // namespace glrmask::glr
