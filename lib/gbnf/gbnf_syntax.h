// The syntax tree of a GBNF grammar (llama.cpp's format, grammars/README.md upstream): rules over
// Unicode code points, no lexer. The parser (gbnf_parser.h) builds it and resolves every rule
// reference; the lowering (gbnf_lowering.h) turns it into the GrammarModel.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace glrmask::gbnf {

using NodeId = std::uint32_t;

enum class NodeKind : std::uint8_t {
  kAlternation,  // children: one per alternative (at least two)
  kSequence,     // children in order; none for the empty alternative
  kRepetition,   // one child, taken min_count to max_count times
  kLiteral,      // a string of code points, possibly empty ("")
  kCharClass,    // one code point in (or, negated, outside) `ranges`
  kRuleRef,      // the rule `rule`
  kToken,        // one token by id or text (`token`), or with `token_negated` any other token
};

struct CodePointRange {
  char32_t first = 0;
  char32_t last = 0;  // inclusive
};

inline constexpr std::uint32_t kUnbounded = std::numeric_limits<std::uint32_t>::max();

struct Node {
  NodeKind kind = NodeKind::kSequence;
  // Where the construct starts in the text (lines and columns from 1, columns in code points).
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::vector<NodeId> children;
  std::uint32_t min_count = 0;  // kRepetition
  std::uint32_t max_count = 0;  // kRepetition; kUnbounded for `*`, `+` and `{m,}`
  std::u32string text;          // kLiteral
  // kCharClass: sorted, disjoint, not adjacent, without surrogates; `.` is the class of every
  // scalar value.
  std::vector<CodePointRange> ranges;
  std::uint32_t rule = 0;  // kRuleRef: an index into Grammar::rules
  std::string token;       // kToken: as written, `<[151657]>` or `<tool_call>` (Terminal::token)
  bool token_negated = false;
};

struct Rule {
  std::string name;
  NodeId body = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Grammar {
  std::string file;  // names the text in messages
  std::vector<Node> nodes;
  std::vector<Rule> rules;  // in the order of their definitions
};

}  // namespace glrmask::gbnf
