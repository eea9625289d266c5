// Constraints on JSON numbers as deterministic automata over their plain decimal spelling
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?, no exponent): bounds of any size and precision, multipleOf any
// decimal, "has a fraction", and their Boolean combinations (intersection, complement within the
// numbers), turned into a regex for the lexer.
//
// Why automata: divisibility by a decimal is a regular language over the digits (a remainder
// automaton), and the intersection or complement of two digit regexes has no short regex of its
// own; the product automaton has.
//
// The regex (to_greedy_regex) is written so that Python's leftmost-first match, which the lexer
// gives a terminal (docs/lexer.md), is the longest prefix in the language: for a number that
// prefix is the whole number whenever the number belongs to the language. It follows the
// automaton: at each state the alternatives are the outgoing transitions grouped by target (their
// first characters differ), and stopping at an accepting state comes last; a cycle through a
// state q becomes (loop through q)* followed by the ways out that never return to q. A shorter
// match u and a longer one w of the same text follow the same path as far as u goes; where their
// parses part, either w goes on where u stops (continuing comes first) or w makes one more turn of
// a loop (more turns come first; u cannot turn where w does not, since a turn ends on the loop's
// state, which w's path reaches too). So the first parse Python finds is the longest.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/json_schema/exact_decimal.h"

namespace glrmask::json_schema {

class NumberAutomaton {
 public:
  // Symbols: 0 '-', 1..10 the digits '0'..'9', 11 '.'.
  static constexpr int kSymbols = 12;
  static constexpr int kDead = -1;

  // Every plain decimal.
  static NumberAutomaton any();
  // Plain decimals x with x op bound: op is one of "<", "<=", ">", ">=", "==".
  static NumberAutomaton compared(const ExactDecimal& bound, std::string_view op);
  // Plain decimals that are integer multiples of m (m > 0, m = p / 10^k with p < 10^18).
  static NumberAutomaton multiple_of(const ScaledInteger& m);
  // Plain decimals written without a fraction (draft 4's integers).
  static NumberAutomaton without_fraction();

  NumberAutomaton intersect(const NumberAutomaton& other) const;
  NumberAutomaton unite(const NumberAutomaton& other) const;
  // The plain decimals this automaton rejects.
  NumberAutomaton complement() const;

  bool empty() const;
  bool accepts(std::string_view text) const;
  std::size_t num_states() const { return next_.size(); }

  // A regex for the language whose leftmost-first match is the longest (see the file comment),
  // or nullopt when it would be longer than `max_length` characters.
  std::optional<std::string> to_greedy_regex(std::size_t max_length = 1 << 18) const;

 private:
  std::vector<std::array<int, kSymbols>> next_;
  std::vector<char> accepting_;
  int start_ = kDead;

  // Trims states that cannot reach acceptance and merges equivalent ones.
  NumberAutomaton minimized() const;
  template <class Combine>
  NumberAutomaton product(const NumberAutomaton& other, Combine combine) const;
  friend class NumberAutomatonBuilder;
  friend class GreedyRegexWriter;
};

}  // namespace glrmask::json_schema
