// What the lexer can still do from each of its forks (lexer/runtime/lexer_fork.h), computed from
// the lexing DFA alone: the terminals that can be the next one the parser sees, and whether the
// input can end after ignored text only. The session's viability test (docs/glr.md) reads these
// for the forks of its lexer configuration, which makes it the Terminal DWA's usage rule
// (lexer/terminal_dwa/terminal_dwa.h) applied to the empty token.
//
// Every fork reachable from the initial fork by some bytes is enumerated when the grammar is
// compiled (a breadth-first search over one byte per byte class), so the answers are a table
// lookup and the object is immutable: sessions on any number of threads share it without locks.
// Why not a lazily filled cache: the forks are few (hundreds to about a thousand for the SynCode
// grammars) and the search costs milliseconds, while a concurrent cache would put a lock or an
// atomic on every commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"
#include "lexer/runtime/lexer_fork.h"

namespace glrmask::lexer {

struct ForkFuturesStats {
  std::size_t forks = 0;           // byte-reachable forks
  std::size_t product_states = 0;  // explored by the next-terminal analysis
  double build_seconds = 0;
};

class ForkFutures {
 public:
  using Id = std::uint32_t;
  static constexpr Id kUnknown = UINT32_MAX;

  // Enumerates the forks reachable by bytes from the initial fork of `dfa` and analyses them.
  explicit ForkFutures(const LexerDfa& dfa);
  // The same from other starting forks (for a fork the first search did not meet: it cannot
  // happen for configurations a lexer reaches, but answering beats failing).
  ForkFutures(const LexerDfa& dfa, std::span<const LexerFork> roots);

  std::size_t size() const { return forks_.size(); }
  const LexerFork& fork(Id id) const { return forks_[id]; }
  // The id of `fork`, or nullopt when no bytes reach it.
  std::optional<Id> find(const LexerFork& fork) const;
  // The id of the fork without inhibitors in DFA state `state` (the deterministic lexer's
  // lexeme still growing), or kUnknown when no bytes reach it. No allocation: the hot path.
  Id uninhibited(std::uint32_t state) const { return uninhibited_[state]; }
  // The id of the fork at a lexeme boundary inhibited by `state` alone (just after a match ending
  // in `state` was emitted early), or kUnknown. No allocation either: the common fall-back.
  Id emitted_early(std::uint32_t state) const { return emitted_early_[state]; }

  // Terminals T such that some bytes make the fork emit, as the first label the parser sees, a
  // label containing T (ignored text looked through; ignored terminals never listed). Ascending.
  std::span<const std::uint32_t> next_terminals(Id id) const {
    return {next_terminals_.data() + next_begin_[id], next_terminals_.data() + next_begin_[id + 1]};
  }
  // Whether next_terminals(id) holds `terminal` (any id, also $END: false). Constant time.
  bool lists(Id id, std::uint32_t terminal) const {
    if (terminal >= num_terminals_) return false;
    return (next_bits_[std::size_t{id} * words_ + terminal / 64] >> (terminal % 64) & 1) != 0;
  }
  // The fork is at a lexeme boundary, or some bytes bring it to one while emitting only labels the
  // parser may skip (purely ignored, or a tie with an ignored alternative).
  bool can_end(Id id) const { return can_end_[id] != 0; }

  const ForkFuturesStats& stats() const { return stats_; }

  // The forks and their answers as flat arrays, for compiled grammar images
  // (fork_futures_io.cpp); read() rebuilds the lookup index and the per-state tables from them
  // and checks every stored state, inhibitor and terminal against `dfa`, so damaged bytes end in
  // glrmask::Error (ErrorCode::kArtifact).
  void write(BinaryWriter& out) const;
  static ForkFutures read(BinaryReader& in, const LexerDfa& dfa);

 private:
  ForkFutures() = default;
  // Fills ids_, next_bits_, uninhibited_ and emitted_early_ from forks_ and next_terminals_.
  void index(const LexerDfa& dfa);

  std::vector<LexerFork> forks_;
  std::unordered_map<LexerFork, Id, LexerForkHash> ids_;
  std::vector<Id> uninhibited_;    // per DFA state
  std::vector<Id> emitted_early_;  // per DFA state
  std::vector<std::uint32_t> next_begin_ = {0};
  std::vector<std::uint32_t> next_terminals_;
  std::size_t words_ = 0;  // per fork in next_bits_
  std::uint32_t num_terminals_ = 0;
  std::vector<std::uint64_t> next_bits_;  // next_terminals as bit sets, for lists()
  std::vector<char> can_end_;
  ForkFuturesStats stats_;
};

}  // namespace glrmask::lexer
