// Determinizes the all-terminals NFA over byte classes, keeping Python's match priority.
//
// A DFA state is the *ordered* list of NFA threads alive after the bytes read so far, grouped by
// terminal, each group in backtracking priority order (RE2's leftmost-first DFA). When a
// terminal's group reaches its match state, the threads after it have lower priority than a match
// that already exists, so they are dropped: a backtracking matcher would never get to them. The
// match itself has no successors; any later match of the terminal comes from a thread that was
// ahead of it and therefore supersedes it. So for every terminal the *last* position where it is
// accepted is exactly the end of the match Python's `re.match` returns for it, greedy and lazy
// quantifiers alike.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "lexer/regex/nfa.h"

namespace glrmask::lexer {

// Bytes that no NFA edge tells apart share a class; the DFA is built over classes.
struct ByteClasses {
  std::array<uint8_t, 256> class_of{};
  std::vector<uint8_t> representative;  // one byte of each class
  uint32_t count() const { return static_cast<uint32_t>(representative.size()); }
};

ByteClasses compute_byte_classes(const Nfa& nfa);

struct ClassDfa {
  ByteClasses classes;
  uint32_t num_states = 0;
  uint32_t start = 0;                   // state 0 is the dead state (no threads)
  std::vector<uint32_t> next;           // next[state * classes.count() + class]
  std::vector<uint32_t> matched_begin;  // terminals matched in state s:
  std::vector<uint32_t> matched;        //   matched[matched_begin[s] .. matched_begin[s + 1])
  std::vector<int16_t> matched_veto;    // per entry of `matched`: NfaState::veto of its match
};

// On average a DFA state may hold this many NFA threads (see build_leftmost_first_dfa).
inline constexpr size_t kMaxThreadsPerState = 64;

// Returns nothing when more than `max_states` states would be needed, or more than
// kMaxThreadsPerState * max_states NFA threads in all the states' lists together.
std::optional<ClassDfa> build_leftmost_first_dfa(const Nfa& nfa, size_t max_states);

}  // namespace glrmask::lexer
