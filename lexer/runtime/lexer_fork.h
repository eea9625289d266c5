// The lexer's situation between two LLM tokens as a finite value: one *fork* of the
// maximal-munch lexer in which every match that could still be extended has been emitted early,
// "inhibited" (docs/terminal_dwa.md). This is what the Terminal DWA is keyed by.
//
// Why not LexerConfiguration itself: its `pending` bytes make the set of configurations reachable
// by vocabulary tokens infinite. Inside a string literal every distinct prefix is a distinct
// configuration, and after Go's `0` a run of zeros must be remembered exactly, because `000x1`
// lexes as DECIMAL_LIT DECIMAL_LIT HEX_LIT while `000.5` is one FLOAT_LIT. A deterministic lexer
// has to delay those labels; a fork emits them at once on one branch and keeps extending on the
// other, so the labels leave with the token and the state left behind is finite.
//
// A fork is (state, inhibitors):
//  - `state`: the DFA state of the current lexeme (start_state() at a lexeme boundary);
//  - `inhibitors`: for each lexeme this fork emitted while a longer match was still possible, the
//    DFA state of that lexeme continued over the bytes read since (marked kHeldEmission
//    right after a label held back one byte was emitted, see LexerDfa::tentative_label). If one of
//    them reaches an accepting state, a longer match exists, the early emission was wrong and the
//    fork dies; if it dies in the DFA, the emission is confirmed and it is dropped.
// Reading a byte that makes `state` accepting with label L splits the fork: one branch emits L
// and restarts (inhibited by the new state unless it is final), the other keeps extending. A
// branch whose `state` dies without accepting dies. At the end of input only forks at a lexeme
// boundary survive, and exactly one fork survives any complete input: the deterministic lexer's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

struct LexerFork {
  uint32_t state = 0;
  std::vector<uint32_t> inhibitors;  // sorted, unique, never the dead state

  bool operator==(const LexerFork&) const = default;
};

struct LexerForkHash {
  size_t operator()(const LexerFork& fork) const;
};

// A fork together with the labels it emitted on the way. Labels whose terminals are all ignored
// are dropped; labels that tie an ignored with a normal terminal are kept (the consumer reads the
// ignored alternative as "skip").
struct ForkedLexing {
  std::vector<LabelId> labels;
  LexerFork fork;

  bool operator==(const ForkedLexing&) const = default;
  auto operator<=>(const ForkedLexing& other) const {
    if (auto c = labels <=> other.labels; c != 0) return c;
    if (auto c = fork.state <=> other.fork.state; c != 0) return c;
    return fork.inhibitors <=> other.fork.inhibitors;
  }
};

LexerFork initial_fork(const LexerDfa& dfa);

// An inhibitor for a label emitted in a state whose match is held back one byte
// (LexerDfa::tentative_label): the emission is void if the next byte is the state's veto byte.
// Inhibitors are otherwise DFA states; this marks such a fresh one.
inline constexpr uint32_t kHeldEmission = 0x80000000u;
// The inhibitor a label emitted early in `state` leaves behind.
inline uint32_t emission_inhibitor(const LexerDfa& dfa, uint32_t state) {
  return dfa.is_tentative(state) ? (state | kHeldEmission) : state;
}

// The input may end here: the fork is at a lexeme boundary, and no inhibitor rests in a state
// whose held-back match the end of input would confirm (a longer match than the one emitted).
inline bool can_finish(const LexerDfa& dfa, const LexerFork& fork) {
  if (fork.state != dfa.start_state()) return false;
  if (!dfa.has_tentative_states()) return true;
  for (const uint32_t inhibitor : fork.inhibitors)
    if ((inhibitor & kHeldEmission) == 0 && dfa.is_tentative(inhibitor)) return false;
  return true;
}

// What reading one byte does to an inhibitor.
inline constexpr uint32_t kInhibitorDischarged = LexerDfa::kDeadState;
inline constexpr uint32_t kInhibitorFired = UINT32_MAX;
// Returns the inhibitor's next state, kInhibitorDischarged (the longer match became impossible:
// forget it) or kInhibitorFired (a longer match exists, or the emission was void: the fork dies).
inline uint32_t step_inhibitor(const LexerDfa& dfa, uint32_t inhibitor, uint8_t byte) {
  if ((inhibitor & kHeldEmission) != 0) {
    inhibitor &= ~kHeldEmission;
    if (byte == dfa.veto_byte(inhibitor)) return kInhibitorFired;  // the emitted match is void
  } else if (dfa.has_tentative_states() && dfa.is_tentative(inhibitor) &&
             byte != dfa.veto_byte(inhibitor)) {
    return kInhibitorFired;  // the longer, held-back match stands
  }
  const uint32_t next = dfa.next(inhibitor, byte);
  if (next == LexerDfa::kDeadState) return kInhibitorDischarged;
  return dfa.label(next) != LexerDfa::kNoLabel ? kInhibitorFired : next;
}

// Appends the successors of `from` after one byte to `out` (none when the fork dies).
void step_fork(const LexerDfa& dfa, const ForkedLexing& from, uint8_t byte,
               std::vector<ForkedLexing>& out);

// Feeds `bytes` to every alternative, byte by byte, replacing `alternatives` by their successors
// (sorted, without duplicates). A plain reference implementation: the Terminal DWA builder does
// the same on a vocabulary trie and is tested against deterministic feed() through this.
void feed_forks(const LexerDfa& dfa, std::vector<ForkedLexing>& alternatives,
                std::string_view bytes);

// The forks equivalent to a deterministic configuration, with the labels each has emitted
// early: the configuration's lexeme may keep extending (no labels), or — when it has an accepted
// prefix — the fall-back may happen (its label, then the pending bytes lexed again). Feeding
// bytes to the configuration with feed() and forking afterwards gives the same alternatives as
// forking first and feeding the forks (after the labels feed() emitted). Sorted, unique.
std::vector<ForkedLexing> fork_configuration(const LexerDfa& dfa,
                                             const LexerConfiguration& configuration);

// "state 12, inhibited by {4, 9}" for messages.
std::string describe_fork(const LexerFork& fork);

}  // namespace glrmask::lexer
