// Per lexer fork of a Terminal DWA: next_terminals(fork) as a bitset over the LR table's
// terminals, and whether it lists a skippable terminal (which the session can always take). The
// spanner asks "may terminal t come next after this fork?" for every cell of an LR row, so the
// answer must take constant time, not a search in the sorted list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "lexer/terminal_dwa/terminal_dwa.h"

namespace glrmask::mask {

class NextTerminalBits {
 public:
  NextTerminalBits() = default;
  // `num_terminals`: the LR table's, $END included. `skippable[t]` per lexer terminal.
  NextTerminalBits(const lexer::TerminalDwa& dwa, std::uint32_t num_terminals,
                   std::span<const char> skippable)
      : words_per_fork_((std::size_t{num_terminals} + 63) / 64),
        bits_(dwa.num_forks() * words_per_fork_, 0),
        lists_skippable_(dwa.num_forks(), 0) {
    for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
      for (const std::uint32_t terminal : dwa.next_terminals(fork)) {
        bits_[fork * words_per_fork_ + terminal / 64] |= std::uint64_t{1} << (terminal % 64);
        if (skippable[terminal] != 0) lists_skippable_[fork] = 1;
      }
    }
  }

  // `terminal` < num_terminals.
  bool lists(lexer::ForkId fork, glr::SymbolId terminal) const {
    return (bits_[fork * words_per_fork_ + terminal / 64] >> (terminal % 64) & 1) != 0;
  }
  bool lists_skippable(lexer::ForkId fork) const { return lists_skippable_[fork] != 0; }

  std::size_t size_in_bytes() const {
    return bits_.size() * sizeof(std::uint64_t) + lists_skippable_.size();
  }

 private:
  std::size_t words_per_fork_ = 0;
  std::vector<std::uint64_t> bits_;
  std::vector<char> lists_skippable_;
};

}  // namespace glrmask::mask
