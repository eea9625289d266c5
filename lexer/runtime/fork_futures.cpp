#include "lexer/runtime/fork_futures.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "lexer/runtime/fork_next_terminals.h"

namespace glrmask::lexer {

ForkFutures::ForkFutures(const LexerDfa& dfa) : ForkFutures(dfa, {}) {}

ForkFutures::ForkFutures(const LexerDfa& dfa, std::span<const LexerFork> roots) {
  const auto started = std::chrono::steady_clock::now();
  auto intern = [&](const LexerFork& fork) {
    const auto [at, inserted] = ids_.try_emplace(fork, static_cast<Id>(forks_.size()));
    if (inserted) forks_.push_back(fork);
    return at->second;
  };
  if (roots.empty()) {
    intern(initial_fork(dfa));
  } else {
    for (const LexerFork& root : roots) intern(root);
  }

  // Breadth-first over one byte per class. `skip_edges` keeps the steps that emit only skippable
  // labels, reversed, for the "can end" analysis below.
  const std::vector<std::uint8_t>& bytes = dfa.byte_classes();
  std::vector<std::vector<Id>> skip_predecessors;
  std::vector<ForkedLexing> successors;
  for (Id id = 0; id < forks_.size(); ++id) {
    const ForkedLexing from{{}, forks_[id]};
    for (const std::uint8_t byte : bytes) {
      successors.clear();
      step_fork(dfa, from, byte, successors);
      for (const ForkedLexing& next : successors) {
        const Id next_id = intern(next.fork);
        const bool skippable = std::all_of(next.labels.begin(), next.labels.end(),
                                           [&](LabelId l) { return dfa.label_may_be_skipped(l); });
        if (!skippable) continue;
        if (skip_predecessors.size() < forks_.size()) skip_predecessors.resize(forks_.size());
        skip_predecessors[next_id].push_back(id);
      }
    }
  }
  skip_predecessors.resize(forks_.size());

  // can_end: backwards from the forks at a boundary along skippable steps.
  can_end_.assign(forks_.size(), 0);
  std::vector<Id> work;
  for (Id id = 0; id < forks_.size(); ++id) {
    if (can_finish(dfa, forks_[id])) {
      can_end_[id] = 1;
      work.push_back(id);
    }
  }
  while (!work.empty()) {
    const Id id = work.back();
    work.pop_back();
    for (const Id before : skip_predecessors[id]) {
      if (can_end_[before] != 0) continue;
      can_end_[before] = 1;
      work.push_back(before);
    }
  }

  const NextTerminalsResult next = fork_next_terminals(dfa, forks_);
  for (Id id = 0; id < forks_.size(); ++id) {
    const std::vector<std::uint32_t>& terminals = next.terminals[id];
    next_terminals_.insert(next_terminals_.end(), terminals.begin(), terminals.end());
    next_begin_.push_back(static_cast<std::uint32_t>(next_terminals_.size()));
  }
  index(dfa);

  stats_.forks = forks_.size();
  stats_.product_states = next.product_states;
  stats_.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void ForkFutures::index(const LexerDfa& dfa) {
  if (ids_.empty()) {
    ids_.reserve(forks_.size());
    for (Id id = 0; id < forks_.size(); ++id) ids_.emplace(forks_[id], id);
  }
  num_terminals_ = static_cast<std::uint32_t>(dfa.terminals().size());
  words_ = (num_terminals_ + 63) / 64;
  next_bits_.assign(forks_.size() * words_, 0);
  for (Id id = 0; id < forks_.size(); ++id)
    for (const std::uint32_t t : next_terminals(id))
      next_bits_[std::size_t{id} * words_ + t / 64] |= std::uint64_t{1} << (t % 64);

  uninhibited_.assign(dfa.num_states(), kUnknown);
  emitted_early_.assign(dfa.num_states(), kUnknown);
  for (Id id = 0; id < forks_.size(); ++id) {
    const LexerFork& fork = forks_[id];
    if (fork.inhibitors.empty()) uninhibited_[fork.state] = id;
    if (fork.state == dfa.start_state() && fork.inhibitors.size() == 1 &&
        (fork.inhibitors.front() & kHeldEmission) == 0)
      emitted_early_[fork.inhibitors.front()] = id;
  }
}

std::optional<ForkFutures::Id> ForkFutures::find(const LexerFork& fork) const {
  const auto at = ids_.find(fork);
  if (at == ids_.end()) return std::nullopt;
  return at->second;
}

}  // namespace glrmask::lexer
