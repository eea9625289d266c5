// ForkFutures::write / read: the enumerated forks and their answers, for compiled grammar images.
// Only what the breadth-first search and the next-terminal analysis found is stored; the hash
// index, the bit sets and the per-state shortcuts are rebuilt from it (ForkFutures::index).
#include <fmt/format.h>

#include <algorithm>

#include "lexer/runtime/fork_futures.h"

namespace glrmask::lexer {

namespace {

constexpr std::uint32_t kForkFuturesSectionTag = 0x4b524f46;  // "FORK"

}  // namespace

void ForkFutures::write(BinaryWriter& out) const {
  out.put(kForkFuturesSectionTag);
  std::vector<std::uint32_t> states;
  std::vector<std::uint32_t> inhibitor_begin = {0};
  std::vector<std::uint32_t> inhibitors;
  states.reserve(forks_.size());
  for (const LexerFork& fork : forks_) {
    states.push_back(fork.state);
    inhibitors.insert(inhibitors.end(), fork.inhibitors.begin(), fork.inhibitors.end());
    inhibitor_begin.push_back(static_cast<std::uint32_t>(inhibitors.size()));
  }
  out.put_array<std::uint32_t>(states);
  out.put_array<std::uint32_t>(inhibitor_begin);
  out.put_array<std::uint32_t>(inhibitors);
  out.put_array<std::uint32_t>(next_begin_);
  out.put_array<std::uint32_t>(next_terminals_);
  out.put_array<char>(can_end_);
  out.put<std::uint64_t>(stats_.forks);
  out.put<std::uint64_t>(stats_.product_states);
  out.put<double>(stats_.build_seconds);
}

ForkFutures ForkFutures::read(BinaryReader& in, const LexerDfa& dfa) {
  if (in.get<std::uint32_t>("fork futures section tag") != kForkFuturesSectionTag)
    in.fail("expected the fork futures section");
  const auto states = in.get_array<std::uint32_t>("fork states");
  const auto inhibitor_begin = in.get_array<std::uint32_t>("fork inhibitor offsets");
  const auto inhibitors = in.get_array<std::uint32_t>("fork inhibitors");
  ForkFutures futures;
  futures.next_begin_ = in.get_array<std::uint32_t>("fork next-terminal offsets");
  futures.next_terminals_ = in.get_array<std::uint32_t>("fork next terminals");
  futures.can_end_ = in.get_array<char>("fork end flags");
  futures.stats_.forks = in.get<std::uint64_t>("fork futures statistics");
  futures.stats_.product_states = in.get<std::uint64_t>("fork futures statistics");
  futures.stats_.build_seconds = in.get<double>("fork futures statistics");

  const std::size_t forks = states.size();
  const auto offsets_fit = [&](const std::vector<std::uint32_t>& begin, std::size_t size) {
    return begin.size() == forks + 1 && begin.front() == 0 && begin.back() == size &&
           std::is_sorted(begin.begin(), begin.end());
  };
  if (forks == 0 || forks >= kUnknown || !offsets_fit(inhibitor_begin, inhibitors.size()) ||
      !offsets_fit(futures.next_begin_, futures.next_terminals_.size()) ||
      futures.can_end_.size() != forks)
    in.fail(fmt::format("the fork futures' arrays disagree on its {} forks", forks));
  const std::uint32_t num_states = dfa.num_states();
  const auto num_terminals = static_cast<std::uint32_t>(dfa.terminals().size());
  futures.forks_.resize(forks);
  futures.ids_.reserve(forks);
  for (Id id = 0; id < forks; ++id) {
    LexerFork& fork = futures.forks_[id];
    fork.state = states[id];
    fork.inhibitors.assign(inhibitors.begin() + inhibitor_begin[id],
                           inhibitors.begin() + inhibitor_begin[id + 1]);
    if (fork.state >= num_states)
      in.fail(fmt::format("fork {} is in lexer state {} of {}", id, fork.state, num_states));
    for (std::size_t i = 0; i < fork.inhibitors.size(); ++i) {
      const std::uint32_t state = fork.inhibitors[i] & ~kHeldEmission;
      if (state == LexerDfa::kDeadState || state >= num_states ||
          (i > 0 && fork.inhibitors[i] <= fork.inhibitors[i - 1]))
        in.fail(fmt::format("fork {} has inhibitors out of order or outside the lexer's {} states",
                            id, num_states));
    }
    for (std::uint32_t j = futures.next_begin_[id]; j < futures.next_begin_[id + 1]; ++j)
      if (futures.next_terminals_[j] >= num_terminals ||
          (j > futures.next_begin_[id] &&
           futures.next_terminals_[j] <= futures.next_terminals_[j - 1]))
        in.fail(fmt::format("fork {} lists next terminals out of order or out of range", id));
    if (futures.can_end_[id] != 0 && futures.can_end_[id] != 1)
      in.fail(fmt::format("fork {} has an end flag other than 0 or 1", id));
    if (!futures.ids_.emplace(fork, id).second) in.fail(fmt::format("fork {} is stored twice", id));
  }
  if (!(futures.forks_.front() == initial_fork(dfa)))
    in.fail("the first stored fork is not the lexer's initial fork");
  futures.index(dfa);
  return futures;
}

}  // namespace glrmask::lexer
