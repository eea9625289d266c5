// The parsed form of one terminal's regular expression. Character-level constructs are already
// resolved to sets of Unicode code points (case folding, \w, `.`, negated classes), so everything
// after the parser deals only with sets, concatenation, ordered alternation and repetition.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace glrmask::lexer {

// An inclusive range of Unicode scalar values. Sets of them are sorted, disjoint and never
// contain surrogates (no UTF-8 encoding exists for those).
struct CodePointRange {
  char32_t first;
  char32_t last;
  bool operator==(const CodePointRange&) const = default;
};
using CodePointRanges = std::vector<CodePointRange>;

enum class RegexKind : uint8_t {
  kEmpty,       // matches the empty string
  kCodePoints,  // one code point from `code_points` (an empty set matches nothing)
  kConcat,      // children in sequence
  kAlternate,   // children in priority order: earlier alternatives are preferred (Python's `|`)
  kRepeat,      // children[0] repeated min..max times, greedy or lazy
  // One code point from `code_points` that must end the match, and a match that ends here is
  // void when the input goes on with the byte `veto`: the rewrite of SynCode's `q(?!qq).*?q`
  // (regex_parser.cpp). Only at the end of a pattern.
  kVetoedEnd,
};

struct RegexNode {
  static constexpr uint32_t kUnbounded = std::numeric_limits<uint32_t>::max();

  RegexKind kind = RegexKind::kEmpty;
  CodePointRanges code_points;     // kCodePoints
  std::vector<uint32_t> children;  // indices into Regex::nodes
  uint32_t min = 0;                // kRepeat
  uint32_t max = 0;                // kRepeat; kUnbounded for * + {m,}
  bool lazy = false;               // kRepeat: *? +? ?? {m,n}?
  uint8_t veto = 0;                // kVetoedEnd
};

struct Regex {
  std::vector<RegexNode> nodes;
  uint32_t root = 0;

  // Length in code points of the shortest string the regex matches (0 when it matches the empty
  // string). Saturates at the uint32_t maximum.
  uint32_t min_length() const;
  // True when some repetition is lazy; such a terminal's match depends on match priority, not
  // only on its language.
  bool has_lazy_repeat() const;
};

}  // namespace glrmask::lexer
