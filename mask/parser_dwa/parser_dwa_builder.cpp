#include "mask/parser_dwa/parser_dwa_builder.h"

#include <fmt/format.h>
#include <tbb/concurrent_vector.h>
#include <tbb/global_control.h>
#include <tbb/spin_mutex.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glr/lr_table.h"
#include "lexer/terminal_dwa/fork_ignored_ending.h"
#include "lib/core/concurrent_array_interner.h"
#include "lib/core/error.h"
#include "lib/core/flat_u64_map.h"
#include "lib/core/hash_mix.h"
#include "lib/core/process_memory.h"
#include "mask/parser_dwa/builder_preparation.h"
#include "mask/parser_dwa/builder_worker.h"
#include "mask/parser_dwa/parser_dwa_analysis.h"
#include "mask/parser_dwa/shift_verdicts.h"
#include "mask/parser_dwa/virtual_stack.h"

namespace glrmask::mask {

// The construction: the tables, the workers, and the assembly of what they found.
class ParserDwaBuilder {
 public:
  ParserDwaBuilder(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                   TokenSetPool& pool, std::optional<TokenId> eos, const ParserDwaOptions& options)
      : shared_(grammar, dwa, pool, eos, options) {
    construction::compute_predecessors(shared_);
    construction::require_single_stack_for_skippables(shared_);
    shared_.verdicts = std::make_unique<ShiftVerdicts>(shared_.table, shared_.predecessors);
    construction::precompute_node_tables(shared_, pool);
    construction::compute_start_reads(shared_);
    if (grammar.indenter() != nullptr) construction::prepare_indenter(shared_);
  }

  ParserDwa build();

 private:
  // Numbers the states in breadth-first order from the start states (forks first, then early
  // starts), each state's transitions by ascending read: the same automaton whatever the number
  // of workers and whichever of them reached a state first.
  void assemble(ParserDwa& result, std::vector<construction::FoundTransition> found,
                std::vector<ParserDwaBranch>& branches) const;

  construction::ParserDwaShared shared_;
};

ParserDwa ParserDwaBuilder::build() {
  const auto started = std::chrono::steady_clock::now();
  std::size_t threads = shared_.options.threads;
  if (threads == 0)
    threads =
        std::min(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                 tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  threads = std::clamp<std::size_t>(threads, 1, shared_.table.num_states());
  construction::ParserDwaSchedule schedule(threads);
  std::vector<std::unique_ptr<construction::ParserDwaWorker>> workers;
  for (std::size_t i = 0; i < threads; ++i)
    workers.push_back(std::make_unique<construction::ParserDwaWorker>(shared_, schedule, i));

  ParserDwa result;
  workers[0]->seed(result.start_states_, result.early_starts_);
  {
    // Workers wait for each other's requests, so each needs a thread of its own (a task
    // scheduler may run tasks one after another).
    std::vector<std::jthread> helpers;
    for (std::size_t i = 1; i < threads; ++i)
      helpers.emplace_back([&worker = *workers[i]] { worker.run(); });
    workers[0]->run();
  }
  if (schedule.error) std::rethrow_exception(schedule.error);

  std::vector<construction::FoundTransition> found;
  std::vector<ParserDwaBranch> branches;
  ParserDwaStats& stats = result.stats_;
  for (const std::unique_ptr<construction::ParserDwaWorker>& worker : workers) {
    const auto offset = static_cast<std::uint32_t>(branches.size());
    for (construction::FoundTransition t : worker->found()) {
      t.branch_begin += offset;
      t.branch_end += offset;
      found.push_back(t);
    }
    branches.insert(branches.end(), worker->found_branches().begin(),
                    worker->found_branches().end());
    std::vector<construction::FoundTransition>().swap(worker->found());
    std::vector<ParserDwaBranch>().swap(worker->found_branches());
    stats.max_virtual_depth = std::max(stats.max_virtual_depth, worker->max_virtual_depth());
    stats.feed_memo_entries += worker->feed_memo_entries();
    stats.expand_memo_entries += worker->expand_memo_entries();
  }
  workers.clear();
  assemble(result, std::move(found), branches);

  stats.states = shared_.states.size();
  stats.early_starts = result.early_starts_.size();
  stats.transitions = result.transitions_.size();
  std::vector<std::uint32_t> weights;
  for (const ParserDwaTransition& t : result.transitions_)
    if (!t.weight.is_empty()) weights.push_back(t.weight.value());
  std::sort(weights.begin(), weights.end());
  stats.distinct_weights =
      static_cast<std::size_t>(std::unique(weights.begin(), weights.end()) - weights.begin());
  for (const construction::WorkId work : shared_.states) {
    const construction::GroupListId groups = shared_.groups_of(work);
    std::size_t count = shared_.item_sets[shared_.items_of(work)].size();
    for (const construction::Group& group : shared_.group_lists[groups]) {
      count += shared_.item_sets[group.body].size();
      for (const construction::ItemSetId guard : group.guards)
        count += shared_.item_sets[guard].size();
    }
    stats.suspended_items += count;
    stats.max_items_per_state = std::max(stats.max_items_per_state, count);
    stats.guarded_states += groups != 0 ? 1 : 0;
  }
  stats.branch_groups = result.branch_begin_.size() - 1;
  stats.branches = result.branches_.size();
  for (const ParserDwaBranch& branch : result.branches_)
    for (const std::uint32_t atom : result.condition_set(branch.conditions))
      if (result.conditions_[atom].kind == ConditionKind::kDeferred) ++stats.deferred_branches;
  const ReadDepthSummary depth = summarize_read_depth(result);
  stats.has_cycles = depth.has_cycles;
  stats.longest_acyclic_read = depth.longest_acyclic_read;
  stats.build_threads = threads;
  stats.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

void ParserDwaBuilder::assemble(ParserDwa& result, std::vector<construction::FoundTransition> found,
                                std::vector<ParserDwaBranch>& branches) const {
  // A condition set by content: its atoms' records, for an order that does not depend on which
  // worker interned what first.
  const auto set_content = [&](std::uint32_t set) {
    std::vector<std::uint32_t> content;
    for (const std::uint32_t atom : shared_.condition_sets[set]) {
      const std::vector<std::uint32_t>& record = shared_.condition_atoms[atom];
      content.insert(content.end(), record.begin(), record.end());
    }
    return content;
  };
  for (const construction::FoundTransition& t : found) {
    std::sort(branches.begin() + t.branch_begin, branches.begin() + t.branch_end,
              [&](const ParserDwaBranch& a, const ParserDwaBranch& b) {
                return set_content(a.conditions) < set_content(b.conditions);
              });
  }
  const std::size_t states = shared_.states.size();
  std::vector<std::uint32_t> begin(states + 1, 0);
  for (const construction::FoundTransition& t : found) ++begin[t.state.value() + 1];
  for (std::size_t s = 0; s < states; ++s) begin[s + 1] += begin[s];
  std::vector<construction::FoundTransition> by_state(found.size());
  {
    std::vector<std::uint32_t> next(begin.begin(), begin.end() - 1);
    for (const construction::FoundTransition& t : found) by_state[next[t.state.value()]++] = t;
  }
  std::vector<construction::FoundTransition>().swap(found);

  std::vector<DwaStateId> canonical(states, ParserDwa::kDeadState);
  std::vector<DwaStateId> order;  // provisional ids in canonical order
  order.reserve(states);
  const auto visit = [&](DwaStateId state) {
    if (canonical[state.value()] != ParserDwa::kDeadState) return;
    canonical[state.value()] = DwaStateId{static_cast<std::uint32_t>(order.size())};
    order.push_back(state);
  };
  for (const DwaStateId state : result.start_states_) visit(state);
  for (const EarlyStart& start : result.early_starts_) visit(start.state);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const DwaStateId state = order[i];
    const auto first = by_state.begin() + begin[state.value()];
    const auto last = by_state.begin() + begin[state.value() + 1];
    std::sort(first, last,
              [](const construction::FoundTransition& a, const construction::FoundTransition& b) {
                return a.read < b.read;
              });
    for (auto t = first; t != last; ++t) {
      if (t->target == DwaStateId{ParserDwa::kBranchBit}) {
        for (std::uint32_t b = t->branch_begin; b < t->branch_end; ++b)
          if (branches[b].target != ParserDwa::kDeadState) visit(branches[b].target);
      } else if (t->target != ParserDwa::kDeadState) {
        visit(t->target);
      }
    }
  }
  if (order.size() != states)
    throw Error(fmt::format("wfa: internal error: {} of {} Parser DWA states are unreachable",
                            states - order.size(), states),
                ErrorCode::kInternal);

  // Conditions and their sets are numbered as they first appear in the output.
  std::unordered_map<std::uint32_t, std::uint32_t> atom_ids;
  std::unordered_map<std::uint32_t, std::uint32_t> set_ids = {{0u, 0u}};
  const auto output_set = [&](std::uint32_t set) {
    const auto [at, added] = set_ids.try_emplace(
        set, static_cast<std::uint32_t>(result.condition_set_begin_.size() - 1));
    if (!added) return at->second;
    for (const std::uint32_t atom : shared_.condition_sets[set]) {
      const auto [known, new_atom] =
          atom_ids.try_emplace(atom, static_cast<std::uint32_t>(result.conditions_.size()));
      if (new_atom) {
        const std::vector<std::uint32_t>& record = shared_.condition_atoms[atom];
        IndenterCondition condition;
        condition.kind = static_cast<ConditionKind>(record[0] & 0xffu);
        condition.text_kind = static_cast<lexer::IndentTextKind>((record[0] >> 8) & 0xffu);
        condition.value = record[1];
        result.conditions_.push_back(condition);
      }
      result.condition_atoms_.push_back(known->second);
    }
    std::sort(result.condition_atoms_.begin() + result.condition_set_begin_.back(),
              result.condition_atoms_.end());
    result.condition_set_begin_.push_back(
        static_cast<std::uint32_t>(result.condition_atoms_.size()));
    return at->second;
  };
  std::vector<ParserDwaTransition> transitions;
  std::vector<std::uint32_t> transition_begin(1, 0);
  transitions.reserve(by_state.size());
  for (const DwaStateId state : order) {
    for (std::uint32_t i = begin[state.value()]; i < begin[state.value() + 1]; ++i) {
      const construction::FoundTransition& t = by_state[i];
      DwaStateId target = t.target;
      if (t.target == DwaStateId{ParserDwa::kBranchBit}) {
        target = DwaStateId{ParserDwa::kBranchBit |
                            static_cast<std::uint32_t>(result.branch_begin_.size() - 1)};
        for (std::uint32_t b = t.branch_begin; b < t.branch_end; ++b) {
          const ParserDwaBranch& branch = branches[b];
          result.branches_.push_back({output_set(branch.conditions),
                                      branch.target == ParserDwa::kDeadState
                                          ? branch.target
                                          : canonical[branch.target.value()],
                                      branch.weight});
        }
        result.branch_begin_.push_back(static_cast<std::uint32_t>(result.branches_.size()));
      } else if (t.target != ParserDwa::kDeadState) {
        target = canonical[t.target.value()];
      }
      transitions.push_back({t.read, target, t.weight});
    }
    transition_begin.push_back(static_cast<std::uint32_t>(transitions.size()));
  }
#if GLRMASK_DCHECK_IS_ON
  // The canonical order the result promises: each state's transitions by ascending read, each
  // read once; the early starts ascending by (label, fork).
  for (std::size_t s = 0; s + 1 < transition_begin.size(); ++s)
    for (std::uint32_t i = transition_begin[s] + 1; i < transition_begin[s + 1]; ++i)
      GLRMASK_DCHECK(transitions[i - 1].read < transitions[i].read,
                     "state {}: reads {} and {} out of order", s, transitions[i - 1].read,
                     transitions[i].read);
  for (std::size_t i = 1; i < result.early_starts_.size(); ++i)
    GLRMASK_DCHECK(std::pair(result.early_starts_[i - 1].label, result.early_starts_[i - 1].fork) <
                       std::pair(result.early_starts_[i].label, result.early_starts_[i].fork),
                   "early starts out of order");
#endif
  result.transitions_ = std::move(transitions);
  result.transition_begin_ = std::move(transition_begin);
  for (DwaStateId& state : result.start_states_) state = canonical[state.value()];
  for (EarlyStart& start : result.early_starts_) start.state = canonical[start.state.value()];
}

ParserDwa build_parser_dwa(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                           TokenSetPool& pool, std::optional<TokenId> eos,
                           const ParserDwaOptions& options) {
  return ParserDwaBuilder(grammar, dwa, pool, eos, options).build();
}

}  // namespace glrmask::mask
