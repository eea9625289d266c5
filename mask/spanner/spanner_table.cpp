#include "mask/spanner/spanner_table.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/core/check.h"
#include "lib/core/hash_mix.h"
#include "mask/spanner/known_top_parser.h"
#include "mask/spanner/next_terminal_bits.h"

namespace glrmask::mask {

namespace {

using glr::StateId;
using glr::SymbolId;
using lexer::DwaNodeId;
using lexer::ForkId;
using lexer::LabelId;

enum class Verdict : std::uint8_t { kAccepted, kRejected, kDepends };

constexpr std::uint32_t kNone = UINT32_MAX;

struct VectorHash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const {
    std::uint64_t h = v.size();
    for (const std::uint32_t x : v) h = fmix64(h + x + 0x9e3779b97f4a7c15ULL);
    return static_cast<std::size_t>(h);
  }
};

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
  return std::uint64_t{a} << 32 | b;
}

// memo[key], computing and keeping it on the first call. `compute` may add to `memo` (no iterator
// is held across it).
template <class Memo, class Compute>
typename Memo::mapped_type memoized(Memo& memo, typename Memo::key_type key, Compute compute) {
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  typename Memo::mapped_type value = compute();
  memo.emplace(key, value);
  return value;
}

// What the builder reads, shared by all threads (read only).
struct Inputs {
  const lexer::TerminalDwa& dwa;
  const glr::LrTable& table;
  std::span<const char> can_end;
  std::span<const char> skippable;
  std::span<const char> ignored;
  const NextTerminalBits& next;
  SymbolId end_of_input;
  std::vector<char> subtree_has_skippable;  // per DWA node: some label below has one
  std::vector<const RoaringBitmap*> sets;   // per TokenSetId value used by a weight
};

bool label_has_skippable(const Inputs& in, LabelId label) {
  for (const std::uint32_t terminal : in.dwa.dfa().label_terminals(label))
    if (in.skippable[terminal] != 0) return true;
  return false;
}

Inputs prepare(const lexer::TerminalDwa& dwa, const glr::LrTable& table,
               std::span<const char> can_end, std::span<const char> skippable,
               std::span<const char> ignored, const NextTerminalBits& next,
               const TokenSetPool& pool) {
  Inputs in{dwa, table, can_end, skippable, ignored, next, table.num_terminals() - 1, {}, {}};
  // Children may have any id, so the subtree flags are computed depth first with a memo.
  in.subtree_has_skippable.assign(dwa.num_nodes(), 2);  // 2 = not computed yet
  std::vector<std::pair<DwaNodeId, std::size_t>> stack;
  for (DwaNodeId start = 0; start < dwa.num_nodes(); ++start) {
    if (in.subtree_has_skippable[start] != 2) continue;
    stack.emplace_back(start, 0);
    while (!stack.empty()) {
      auto& [node, next_edge] = stack.back();
      const auto edges = dwa.edges(node);
      if (next_edge == 0) in.subtree_has_skippable[node] = 0;
      if (next_edge < edges.size()) {
        const lexer::DwaEdge edge = edges[next_edge++];
        if (label_has_skippable(in, edge.label)) in.subtree_has_skippable[node] = 1;
        if (in.subtree_has_skippable[edge.child] == 2) {
          stack.emplace_back(edge.child, 0);
        } else if (in.subtree_has_skippable[edge.child] == 1) {
          in.subtree_has_skippable[node] = 1;
        }
        continue;
      }
      const DwaNodeId done = node;
      stack.pop_back();
      if (!stack.empty() && in.subtree_has_skippable[done] == 1)
        in.subtree_has_skippable[stack.back().first] = 1;
    }
  }
  in.sets.assign(pool.distinct_sets(), nullptr);
  for (DwaNodeId node = 0; node < dwa.num_nodes(); ++node)
    for (const lexer::DwaWeight& weight : dwa.weights(node))
      in.sets[weight.tokens.value()] = &pool.get(weight.tokens);
  return in;
}

// The abstract value of a trie node for stacks with top q: see spanner_table.h.
struct StackSet {
  std::vector<VirtualStackId> sure;   // ascending
  std::vector<VirtualStackId> maybe;  // ascending, disjoint from sure
  bool unknown = false;
};

struct LocalPlan {
  DwaNodeId node = 0;
  bool reenter = false;
  std::vector<std::uint32_t> weights;
  std::vector<SpannerPlanEdge> edges;  // children are local plan ids
};

struct LocalResult {
  std::uint32_t accepted = kNone;  // index into StateSolver::accepted_lists_
  std::uint32_t plan = kNone;      // local plan id
  bool skip_sensitive = false;
};

// Decides entry nodes' subtries for stacks whose top state is one LR state.
class StateSolver {
 public:
  static constexpr std::uint32_t kDead = UINT32_MAX;

  StateSolver(const Inputs& in, StateId state) : in_(in), parser_(in.table, state) {
    initial_ = intern(StackSet{{parser_.root()}, {}, false});
  }

  LocalResult solve_entry(DwaNodeId node) { return solve(node, initial_); }

  // The accepted tokens of a result: the union of these weights' sets (TokenSetId values,
  // ascending). Unions are taken once per distinct list, when the table is assembled.
  const std::vector<std::uint32_t>& accepted_list(std::uint32_t index) const {
    return accepted_lists_[index];
  }
  const std::vector<LocalPlan>& plans() const { return plans_; }
  std::size_t memo_entries() const { return solved_.size(); }
  std::size_t known_stacks() const { return parser_.num_stacks(); }

 private:
  struct Fed {
    std::uint32_t set = kDead;
    bool skip_sensitive = false;
  };

  std::uint32_t intern(StackSet set) {
    // The key is the lists as given, so equal sets must be equal lists (see StackSet).
    GLRMASK_DCHECK(std::is_sorted(set.sure.begin(), set.sure.end()) &&
                   std::is_sorted(set.maybe.begin(), set.maybe.end()) &&
                   std::none_of(set.maybe.begin(), set.maybe.end(), [&](VirtualStackId stack) {
                     return std::binary_search(set.sure.begin(), set.sure.end(), stack);
                   }));
    key_.clear();
    key_.insert(key_.end(), set.sure.begin(), set.sure.end());
    key_.push_back(kNone);
    key_.insert(key_.end(), set.maybe.begin(), set.maybe.end());
    key_.push_back(set.unknown ? 1 : 0);
    const auto [it, inserted] =
        set_ids_.try_emplace(key_, static_cast<std::uint32_t>(sets_.size()));
    if (inserted) sets_.push_back(std::move(set));
    return it->second;
  }

  // Whether a stack takes a terminal of next_terminals(end) (or accepts the end of input, when
  // the end fork can end): for every real stack below, for none, or it depends.
  Verdict stack_verdict(VirtualStackId stack, ForkId end) {
    const std::uint64_t key = pair_key(stack, end);
    if (const auto it = stack_verdicts_.find(key); it != stack_verdicts_.end()) return it->second;
    Verdict verdict = Verdict::kRejected;
    const glr::LrTable& table = in_.table;
    const StateId top = parser_.top(stack);
    for (std::uint32_t cell = table.row_begin(top);
         cell < table.row_end(top) && verdict != Verdict::kAccepted; ++cell) {
      const SymbolId terminal = table.cell_terminal(cell);
      if (terminal == in_.end_of_input || !in_.next.lists(end, terminal)) continue;
      const KnownTopStep& step = parser_.step(stack, terminal);
      if (!step.shifted.empty()) {
        verdict = Verdict::kAccepted;
      } else if (step.unknown) {
        verdict = Verdict::kDepends;
      }
    }
    if (verdict != Verdict::kAccepted && in_.can_end[end] != 0) {
      const KnownTopStep& step = parser_.step(stack, in_.end_of_input);
      if (step.accepts) {
        verdict = Verdict::kAccepted;
      } else if (step.unknown) {
        verdict = Verdict::kDepends;
      }
    }
    stack_verdicts_.emplace(key, verdict);
    return verdict;
  }

  // SpannerEngine::end_fork_allows for every stack the set stands for.
  Verdict end_verdict(std::uint32_t set_id, ForkId end) {
    return memoized(end_verdicts_, pair_key(set_id, end),
                    [&] { return compute_end_verdict(set_id, end); });
  }

  Verdict compute_end_verdict(std::uint32_t set_id, ForkId end) {
    const StackSet& set = sets_[set_id];
    if (!set.sure.empty()) {
      // A skippable terminal is always takeable (IncrementalRecognizer::can_take).
      if (in_.next.lists_skippable(end)) return Verdict::kAccepted;
      for (const VirtualStackId stack : set.sure)
        if (stack_verdict(stack, end) == Verdict::kAccepted) return Verdict::kAccepted;
    }
    if (set.unknown || in_.next.lists_skippable(end)) return Verdict::kDepends;
    for (const VirtualStackId stack : set.sure)
      if (stack_verdict(stack, end) != Verdict::kRejected) return Verdict::kDepends;
    for (const VirtualStackId stack : set.maybe)
      if (stack_verdict(stack, end) != Verdict::kRejected) return Verdict::kDepends;
    return Verdict::kRejected;
  }

  // IncrementalRecognizer::feed_token on every stack the set stands for.
  Fed feed(std::uint32_t set_id, LabelId label) {
    return memoized(fed_, pair_key(set_id, label), [&] { return compute_feed(set_id, label); });
  }

  Fed compute_feed(std::uint32_t set_id, LabelId label) {
    const lexer::LexerDfa& dfa = in_.dwa.dfa();
    if (dfa.label_is_ignored(label)) return {set_id, false};
    const StackSet set = sets_[set_id];  // a copy: interning below may move sets_
    StackSet next;
    bool keep = false;        // every stack also stays as it is
    bool keep_maybe = false;  // some stacks stay as they are
    bool sensitive = false;
    for (const std::uint32_t terminal : dfa.label_terminals(label)) {
      if (in_.ignored[terminal] != 0) {
        keep = true;
        continue;
      }
      bool shifted_by_sure = false;
      bool shifted_by_maybe = false;
      bool unknown = set.unknown;
      for (const VirtualStackId stack : set.sure) {
        const KnownTopStep& step = parser_.step(stack, terminal);
        next.sure.insert(next.sure.end(), step.shifted.begin(), step.shifted.end());
        shifted_by_sure = shifted_by_sure || !step.shifted.empty();
        unknown = unknown || step.unknown;
      }
      for (const VirtualStackId stack : set.maybe) {
        const KnownTopStep& step = parser_.step(stack, terminal);
        next.maybe.insert(next.maybe.end(), step.shifted.begin(), step.shifted.end());
        shifted_by_maybe = shifted_by_maybe || !step.shifted.empty();
        unknown = unknown || step.unknown;
      }
      next.unknown = next.unknown || unknown;
      if (in_.skippable[terminal] == 0 || shifted_by_sure) continue;
      // Skipped where no stack shifts it. That is decided over all heads of the GSS, so a cell
      // that relies on it cannot be split over several heads.
      sensitive = true;
      if (!shifted_by_maybe && !unknown) {
        keep = true;
      } else {
        keep_maybe = true;
      }
    }
    if (keep) {
      next.sure.insert(next.sure.end(), set.sure.begin(), set.sure.end());
      next.maybe.insert(next.maybe.end(), set.maybe.begin(), set.maybe.end());
      next.unknown = next.unknown || set.unknown;
    } else if (keep_maybe) {
      next.maybe.insert(next.maybe.end(), set.sure.begin(), set.sure.end());
      next.maybe.insert(next.maybe.end(), set.maybe.begin(), set.maybe.end());
      next.unknown = next.unknown || set.unknown;
    }
    std::sort(next.sure.begin(), next.sure.end());
    next.sure.erase(std::unique(next.sure.begin(), next.sure.end()), next.sure.end());
    std::sort(next.maybe.begin(), next.maybe.end());
    next.maybe.erase(std::unique(next.maybe.begin(), next.maybe.end()), next.maybe.end());
    std::erase_if(next.maybe, [&](VirtualStackId stack) {
      return std::binary_search(next.sure.begin(), next.sure.end(), stack);
    });
    if (next.sure.empty() && next.maybe.empty() && !next.unknown) return {kDead, sensitive};
    return {intern(std::move(next)), sensitive};
  }

  LocalResult solve(DwaNodeId node, std::uint32_t set_id) {
    const std::uint64_t key = pair_key(node, set_id);
    if (const auto it = solved_.find(key); it != solved_.end()) return results_[it->second];
    const LocalResult result = compute(node, set_id);
    solved_.emplace(key, static_cast<std::uint32_t>(results_.size()));
    results_.push_back(result);
    return result;
  }

  LocalResult compute(DwaNodeId node, std::uint32_t set_id) {
    LocalResult result;
    const lexer::TerminalDwa& dwa = in_.dwa;
    if (sets_[set_id].sure.empty() && sets_[set_id].maybe.empty()) {
      // Only stacks that popped below the head are left: nothing below is decided from it.
      result.plan = add_plan(LocalPlan{node, true, {}, {}});
      result.skip_sensitive = in_.subtree_has_skippable[node] != 0;
      return result;
    }
    std::vector<std::uint32_t> accepted;  // weight sets, then children's lists merged in
    std::uint32_t only_child = kNone;     // the one child list when nothing else is accepted
    std::size_t child_lists = 0;
    LocalPlan plan{node, false, {}, {}};
    const auto weights = dwa.weights(node);
    for (std::uint32_t i = 0; i < weights.size(); ++i) {
      switch (end_verdict(set_id, weights[i].end)) {
        case Verdict::kAccepted:
          accepted.push_back(weights[i].tokens.value());
          break;
        case Verdict::kDepends:
          plan.weights.push_back(i);
          break;
        case Verdict::kRejected:
          break;
      }
    }
    for (const lexer::DwaEdge& edge : dwa.edges(node)) {
      const Fed fed = feed(set_id, edge.label);
      result.skip_sensitive = result.skip_sensitive || fed.skip_sensitive;
      if (fed.set == kDead) continue;
      const LocalResult child = solve(edge.child, fed.set);
      result.skip_sensitive = result.skip_sensitive || child.skip_sensitive;
      if (child.accepted != kNone) {
        const std::vector<std::uint32_t>& list = accepted_lists_[child.accepted];
        accepted.insert(accepted.end(), list.begin(), list.end());
        only_child = child.accepted;
        ++child_lists;
      }
      if (child.plan != kNone) plan.edges.push_back({edge.label, child.plan});
    }
    if (child_lists == 1 && accepted.size() == accepted_lists_[only_child].size()) {
      result.accepted = only_child;  // shared, not copied
    } else if (!accepted.empty()) {
      std::sort(accepted.begin(), accepted.end());
      accepted.erase(std::unique(accepted.begin(), accepted.end()), accepted.end());
      result.accepted = static_cast<std::uint32_t>(accepted_lists_.size());
      accepted_lists_.push_back(std::move(accepted));
    }
    if (!plan.weights.empty() || !plan.edges.empty()) result.plan = add_plan(std::move(plan));
    return result;
  }

  std::uint32_t add_plan(LocalPlan plan) {
    plans_.push_back(std::move(plan));
    return static_cast<std::uint32_t>(plans_.size() - 1);
  }

  const Inputs& in_;
  KnownTopParser parser_;
  std::vector<StackSet> sets_;
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, VectorHash> set_ids_;
  std::vector<std::uint32_t> key_;  // intern() scratch
  std::uint32_t initial_ = 0;
  std::unordered_map<std::uint64_t, Verdict> stack_verdicts_;  // (stack, end fork)
  std::unordered_map<std::uint64_t, Verdict> end_verdicts_;    // (set, end fork)
  std::unordered_map<std::uint64_t, Fed> fed_;                 // (set, label)
  std::unordered_map<std::uint64_t, std::uint32_t> solved_;    // (node, set) -> results_
  std::vector<LocalResult> results_;
  std::vector<std::vector<std::uint32_t>> accepted_lists_;
  std::vector<LocalPlan> plans_;
};

}  // namespace

// Gathers the per-state results into the table: interns the accepted sets (one union per distinct
// list of weight sets), shares equal plan nodes between states and collects the nodes the plans
// re-enter. Called under a lock, one state at a time.
class SpannerTableBuilder {
 public:
  SpannerTableBuilder(SpannerTable& table, const Inputs& in, TokenSetPool& pool)
      : table_(table), in_(in), pool_(pool), met_(in.dwa.num_nodes(), 0) {}

  // Marks a node as an entry node or as refused, so it is not collected again.
  void mark_met(DwaNodeId node) { met_[node] = 1; }

  // One state's results: results[i] goes to cells_[cells[i]].
  void add_state(const StateSolver& solver, const std::vector<std::uint32_t>& cells,
                 const std::vector<LocalResult>& results) {
    std::vector<SpannerPlanId> global(solver.plans().size());
    for (std::size_t i = 0; i < solver.plans().size(); ++i)
      global[i] = share_plan(solver.plans()[i], global);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const LocalResult& local = results[i];
      SpannerCell& cell = table_.cells_[cells[i]];
      if (local.accepted != kNone) cell.accepted = unite(solver.accepted_list(local.accepted));
      cell.plan = local.plan == kNone ? SpannerTable::kNoPlan : global[local.plan];
      cell.skip_sensitive = local.skip_sensitive;
    }
    memo_entries_ += solver.memo_entries();
    known_stacks_ += solver.known_stacks();
  }

  // The re-entered nodes met since the last call that are no entry nodes yet, ascending.
  std::vector<DwaNodeId> take_reentered() {
    std::sort(reentered_.begin(), reentered_.end());
    return std::exchange(reentered_, {});
  }

  std::size_t memo_entries() const { return memo_entries_; }
  std::size_t known_stacks() const { return known_stacks_; }
  std::size_t distinct_lists() const { return united_.size(); }

 private:
  TokenSetId unite(const std::vector<std::uint32_t>& list) {
    if (list.size() == 1) return TokenSetId(list.front());
    const auto [it, inserted] = united_.try_emplace(list);
    if (inserted) {
      std::vector<const RoaringBitmap*> sets;
      sets.reserve(list.size());
      for (const std::uint32_t id : list) sets.push_back(in_.sets[id]);
      it->second = pool_.intern(RoaringBitmap::fastunion(sets.size(), sets.data()));
    }
    return it->second;
  }

  SpannerPlanId share_plan(const LocalPlan& plan, const std::vector<SpannerPlanId>& global) {
    key_.assign(
        {plan.node, plan.reenter ? 1u : 0u, static_cast<std::uint32_t>(plan.weights.size())});
    key_.insert(key_.end(), plan.weights.begin(), plan.weights.end());
    for (const SpannerPlanEdge& edge : plan.edges) {
      key_.push_back(edge.label);
      key_.push_back(global[edge.child]);
    }
    const auto [it, inserted] =
        ids_.try_emplace(key_, static_cast<SpannerPlanId>(table_.plan_nodes_.size()));
    if (!inserted) return it->second;
    if (plan.reenter && met_[plan.node] == 0) {
      met_[plan.node] = 1;
      reentered_.push_back(plan.node);
    }
    SpannerPlanNode node;
    node.node = plan.node;
    node.reenter = plan.reenter;
    node.weights_begin = static_cast<std::uint32_t>(table_.plan_weights_.size());
    table_.plan_weights_.insert(table_.plan_weights_.end(), plan.weights.begin(),
                                plan.weights.end());
    node.weights_end = static_cast<std::uint32_t>(table_.plan_weights_.size());
    node.edges_begin = static_cast<std::uint32_t>(table_.plan_edges_.size());
    for (const SpannerPlanEdge& edge : plan.edges)
      table_.plan_edges_.push_back({edge.label, global[edge.child]});
    node.edges_end = static_cast<std::uint32_t>(table_.plan_edges_.size());
    table_.plan_nodes_.push_back(node);
    return it->second;
  }

  SpannerTable& table_;
  const Inputs& in_;
  TokenSetPool& pool_;
  std::unordered_map<std::vector<std::uint32_t>, SpannerPlanId, VectorHash> ids_;
  std::unordered_map<std::vector<std::uint32_t>, TokenSetId, VectorHash> united_;
  std::vector<std::uint32_t> key_;
  std::vector<char> met_;  // per DWA node: an entry node, refused, or in reentered_
  std::vector<DwaNodeId> reentered_;
  std::size_t memo_entries_ = 0;
  std::size_t known_stacks_ = 0;
};

namespace {

// The states a head can have at a re-entered node: it is re-entered only after its incoming
// label was shifted (a skip or an ignored alternative keeps known stacks, so never re-enters),
// and the state after shifting terminal t is one whose accessing symbol is t.
class ReentryStates {
 public:
  explicit ReentryStates(const Inputs& in) : in_(in), incoming_(in.dwa.num_nodes()) {
    const glr::LrTable& table = in.table;
    accessed_by_.resize(table.num_terminals());
    for (StateId state = 0; state < table.num_states(); ++state)
      for (std::uint32_t cell = table.row_begin(state); cell < table.row_end(state); ++cell)
        for (const glr::Action action : table.cell_actions(cell))
          if (action.is_shift()) accessed_by_[table.cell_terminal(cell)].push_back(action.target());
    for (std::vector<StateId>& states : accessed_by_) {
      std::sort(states.begin(), states.end());
      states.erase(std::unique(states.begin(), states.end()), states.end());
    }
    for (DwaNodeId node = 0; node < in.dwa.num_nodes(); ++node)
      for (const lexer::DwaEdge& edge : in.dwa.edges(node))
        incoming_[edge.child].push_back(edge.label);
  }

  std::vector<StateId> at(DwaNodeId node) const {
    std::vector<StateId> states;
    for (const LabelId label : incoming_[node])
      for (const std::uint32_t terminal : in_.dwa.dfa().label_terminals(label))
        states.insert(states.end(), accessed_by_[terminal].begin(), accessed_by_[terminal].end());
    std::sort(states.begin(), states.end());
    states.erase(std::unique(states.begin(), states.end()), states.end());
    return states;
  }

 private:
  const Inputs& in_;
  std::vector<std::vector<LabelId>> incoming_;     // per DWA node: labels of edges into it
  std::vector<std::vector<StateId>> accessed_by_;  // per terminal: the states its shifts reach
};

}  // namespace

SpannerTable SpannerTable::build(const lexer::TerminalDwa& dwa, const glr::LrTable& table,
                                 std::span<const char> can_end, std::span<const char> skippable,
                                 std::span<const char> ignored, TokenSetPool& pool,
                                 std::size_t max_cells) {
  const auto started = std::chrono::steady_clock::now();
  const std::clock_t started_cpu = std::clock();
  SpannerTable result;
  result.next_ = NextTerminalBits(dwa, table.num_terminals(), skippable);
  const Inputs in = prepare(dwa, table, can_end, skippable, ignored, result.next_, pool);
  const StateId num_states = table.num_states();
  SpannerTableStats& stats = result.stats_;
  result.entry_of_node_.assign(dwa.num_nodes(), kNoEntry);
  result.root_entry_.resize(dwa.num_forks());
  SpannerTableBuilder builder(result, in, pool);
  const ReentryStates reentry_states(in);
  // Each round solves its entry nodes for every state they have a cell for; `by_state[q]` lists
  // the (entry node, cell) pairs of state q.
  std::vector<std::vector<std::pair<DwaNodeId, std::uint32_t>>> by_state(num_states);
  auto add_entry = [&](DwaNodeId node, std::span<const StateId> states) {
    result.entry_of_node_[node] = static_cast<std::uint32_t>(result.entries_.size());
    Entry entry;
    entry.first_cell = static_cast<std::uint32_t>(result.cells_.size());
    entry.states_begin = static_cast<std::uint32_t>(result.entry_states_.size());
    result.entry_states_.insert(result.entry_states_.end(), states.begin(), states.end());
    entry.states_end = static_cast<std::uint32_t>(result.entry_states_.size());
    result.entries_.push_back(entry);
    const std::size_t count = states.empty() ? num_states : states.size();
    for (std::size_t i = 0; i < count; ++i) {
      const StateId state = states.empty() ? static_cast<StateId>(i) : states[i];
      by_state[state].emplace_back(node, static_cast<std::uint32_t>(result.cells_.size()));
      result.cells_.emplace_back();
    }
  };
  for (ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    const DwaNodeId root = dwa.root(fork);
    if (result.entry_of_node_[root] == kNoEntry) {
      builder.mark_met(root);
      add_entry(root, {});
      ++stats.root_nodes;
    }
    result.root_entry_[fork] = result.entry_of_node_[root];
  }
  std::mutex merging;
  for (bool more = true; more;) {
    ++stats.rounds;
    // The workers read the pool only through `in.sets` (pointers to stored sets, which interning
    // leaves in place), so the merge may intern while other states are being solved.
    tbb::parallel_for(tbb::blocked_range<StateId>(0, num_states, 1),
                      [&](const tbb::blocked_range<StateId>& range) {
                        for (StateId state = range.begin(); state != range.end(); ++state) {
                          if (by_state[state].empty()) continue;
                          StateSolver solver(in, state);
                          std::vector<std::uint32_t> cells;
                          std::vector<LocalResult> results;
                          for (const auto& [node, cell] : by_state[state]) {
                            cells.push_back(cell);
                            results.push_back(solver.solve_entry(node));
                          }
                          const std::lock_guard lock(merging);
                          builder.add_state(solver, cells, results);
                        }
                      });
    for (auto& pairs : by_state) pairs.clear();
    more = false;
    for (const DwaNodeId node : builder.take_reentered()) {
      const std::vector<StateId> states = reentry_states.at(node);
      if (states.empty()) continue;  // no head gets there: the plan node is never reached
      if (result.cells_.size() + states.size() > max_cells) {
        ++stats.unentered_nodes;  // re-entering it walks its whole subtrie on the real heads
        continue;
      }
      add_entry(node, states);
      more = true;
    }
  }
  stats.forks = dwa.num_forks();
  stats.states = num_states;
  stats.entry_nodes = result.entries_.size();
  stats.cells = result.cells_.size();
  std::vector<TokenSetId> distinct;
  for (const SpannerCell& cell : result.cells_) {
    if (!cell.accepted.is_empty()) {
      ++stats.cells_with_accepted;
      distinct.push_back(cell.accepted);
    }
    if (cell.plan != kNoPlan) ++stats.cells_with_plan;
    if (cell.skip_sensitive) ++stats.cells_skip_sensitive;
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  stats.distinct_accepted_sets = distinct.size();
  stats.distinct_accepted_lists = builder.distinct_lists();
  for (const TokenSetId id : distinct) stats.accepted_set_bytes += pool.get(id).getSizeInBytes();
  stats.plan_nodes = result.plan_nodes_.size();
  stats.plan_edges = result.plan_edges_.size();
  stats.plan_weights = result.plan_weights_.size();
  stats.memo_entries = builder.memo_entries();
  stats.known_stacks = builder.known_stacks();
  stats.bytes = result.cells_.size() * sizeof(SpannerCell) +
                result.entries_.size() * sizeof(Entry) +
                result.entry_states_.size() * sizeof(StateId) +
                result.entry_of_node_.size() * sizeof(std::uint32_t) +
                result.root_entry_.size() * sizeof(std::uint32_t) +
                result.plan_nodes_.size() * sizeof(SpannerPlanNode) +
                result.plan_weights_.size() * sizeof(std::uint32_t) +
                result.plan_edges_.size() * sizeof(SpannerPlanEdge) + result.next_.size_in_bytes();
  stats.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stats.build_cpu_seconds = static_cast<double>(std::clock() - started_cpu) / CLOCKS_PER_SEC;
  return result;
}

}  // namespace glrmask::mask
