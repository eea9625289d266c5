// Terminals written as Boolean combinations of regular languages with Python lookaheads:
//
//     (?=A1)(?=A2)(?!B1)C | (?!B2)D | ...
//
// A top-level alternative that begins with lookaheads matches what its body matches and every
// positive lookahead matches, and no negative one does. Python reads `(?=A)` as "A matches some
// prefix of the rest of the text", which is not "A matches the same text as C" in general; the two
// agree when no word of any part is a proper prefix of a word of another part (the union of the
// parts' languages is prefix-free): then at most one prefix of any text belongs to any part, so
// every lookahead looks at exactly the text the body matched. Quoted JSON strings are such a
// language (a string ends at its first unescaped quote), which is what the JSON Schema compiler
// writes: a `pattern` beside a length bound, a `format`, `not {"pattern": ...}`, the key regions of
// `patternProperties`. The lexer accepts the form only when that condition holds (checked on the
// automata) and then compiles the terminal as the exact intersection and difference of the
// languages: L = ⋃ over alternatives (L(body) ∩ ⋂ L(A) \ ⋃ L(B)), a deterministic automaton
// embedded in the NFA, whose match (prefix-free, so unique) is the one Python's `re.match` finds.
//
// A pattern with no leading lookahead in any top-level alternative is not of this form and goes
// through the ordinary regex path (where lookaround stays refused, docs/lexer.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lexer/regex/nfa.h"

namespace glrmask::lexer {

struct LookaheadTerm {
  std::vector<std::string> positive;  // (?=...) bodies
  std::vector<std::string> negative;  // (?!...) bodies
  std::string body;
};

// The terms of `pattern`, or nullopt when no top-level alternative starts with a lookahead (the
// pattern is an ordinary regex). Throws glrmask::Error naming `origin` for a pattern that mixes
// the form with global inline flags or the verbose flag.
std::optional<std::vector<LookaheadTerm>> split_lookahead_terms(std::string_view pattern,
                                                                std::string_view flags,
                                                                std::string_view origin);

// Appends the terminal's automaton (the next terminal index) to `nfa`; an empty language gives a
// terminal that never matches. Throws glrmask::Error naming `origin` when the parts' union is not
// prefix-free, when the language holds the empty string, or when an automaton exceeds
// `max_states`.
void add_lookahead_terminal(Nfa& nfa, const std::vector<LookaheadTerm>& terms,
                            std::string_view flags, std::string_view origin, size_t max_states);

}  // namespace glrmask::lexer
