// A Thompson NFA over bytes holding the automata of all terminals side by side. Split states keep
// their two successors in priority order (`preferred` first), which is what lets the subset
// construction reproduce Python's backtracking preference (greedy versus lazy, earlier versus
// later alternative) instead of plain language membership.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "lexer/regex/regex_ast.h"

namespace glrmask::lexer {

enum class NfaKind : uint8_t {
  kBytes,  // consumes one byte along one of `edges` (the edges of one state are disjoint)
  kSplit,  // epsilon to `preferred`, then (at lower priority) to `other`
  kMatch,  // the terminal has matched (void if the next byte is `veto`, when that is >= 0)
};

struct NfaEdge {
  uint8_t first;
  uint8_t last;
  uint32_t next;
};

struct NfaState {
  NfaKind kind = NfaKind::kBytes;
  uint32_t terminal = 0;
  uint32_t preferred = 0;   // kSplit
  uint32_t other = 0;       // kSplit
  uint32_t edge_begin = 0;  // kBytes: edges [edge_begin, edge_end) of Nfa::edges
  uint32_t edge_end = 0;
  int16_t veto = -1;  // kMatch: the byte after the match that voids it (RegexKind::kVetoedEnd)
};

struct Nfa {
  std::vector<NfaState> states;
  std::vector<NfaEdge> edges;
  std::vector<uint32_t> starts;  // entry state of each terminal, indexed by terminal

  // Appends `regex` as the automaton of the next terminal (index starts.size()). Throws
  // glrmask::Error naming `origin` when the NFA would exceed `max_states` states.
  void add_terminal(const Regex& regex, std::string_view origin, size_t max_states);
  // Appends a token terminal (lib/core/token_terminal.h): the bytes standing for token `id`, or
  // with `negated` those of every other id. Deterministic: at most ten states.
  void add_token_terminal(uint32_t id, bool negated, std::string_view origin, size_t max_states);
  // Appends a byte terminal: one byte of `ranges` (sorted, disjoint, inclusive).
  void add_byte_terminal(std::span<const std::pair<uint8_t, uint8_t>> ranges);
  // Appends a terminal that matches nothing (one produced after the lexer), so that terminal
  // indices stay those of the grammar.
  void add_unmatchable_terminal();

  // Terminals matched as a language (TerminalSpec::whole_language): the subset construction keeps
  // the threads behind their matches (every full match counts, not Python's first) and drops a
  // match of the empty string (a lexeme is never empty).
  std::vector<uint8_t> whole_language;  // per terminal; absent entries are 0
  bool is_whole_language(uint32_t terminal) const {
    return terminal < whole_language.size() && whole_language[terminal] != 0;
  }
};

}  // namespace glrmask::lexer
