// What the lexer needs to know about one terminal. The grammar front-ends produce these; the lexer
// never looks at a grammar itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace glrmask::lexer {

struct TerminalSpec {
  std::string name;         // e.g. "NAME", "LPAR", "__ANON_3"
  std::string regex;        // Python `re` syntax; literals arrive already escaped as regex
  std::string flags;        // subset of "imsx" applied to the whole pattern
  int priority = 0;         // Lark terminal priority (may be negative)
  bool is_literal = false;  // defined by a string literal (wins equal-length ties over patterns)
  bool ignored = false;     // %ignore: matched and dropped
  bool external = false;    // produced after the lexer (a post-lexer's terminal): never matched
  bool whole_language =
      false;  // every full match, not Python's first one (Terminal::whole_language)
  // A token terminal (lib/core/token_terminal.h): the id whose bytes it matches, or with
  // `token_negated` every token's but that one. `regex` is then empty.
  std::optional<std::uint32_t> token;
  bool token_negated = false;
  // A byte terminal (Terminal::byte_ranges): one byte of these inclusive ranges.
  std::vector<std::pair<std::uint8_t, std::uint8_t>> byte_ranges;
  std::string origin;  // "file:line:col" of the definition, used in every error about it
};

}  // namespace glrmask::lexer
