// Splits the text of a .lark file into the lexemes of Lark's grammar language.
//
// Lark's layout rules, which this reproduces:
//  - `//` starts a comment to the end of the line; `\` at the end of a line joins it with the next.
//  - A line break ends a statement, except when the next non-blank, non-comment line starts with
//    `|`: that continues the alternatives (the break and the `|` become one kOr lexeme).
//  - Names are `_?[a-z][_a-z0-9]*` (rules) or `_?[A-Z][_A-Z0-9]*` (terminals).
//  - "strings" may not span lines and may end with the flag `i`; /regexps/ end at the first
//    unescaped `/` and may end with flags from "imslux"; a regexp spans lines only with flag `x`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_syntax.h"

namespace glrmask::lark {

enum class LexemeKind : std::uint8_t {
  kRuleName,
  kTerminalName,
  kString,
  kRegexp,
  kToken,  // <[151657]> or <tool_call>: a token terminal (lib/core/token_terminal.h)
  kNumber,
  kDirective,  // %ignore %import %declare %override %extend (text says which)
  kColon,
  kOr,
  kNewline,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kComma,
  kDot,
  kDotDot,
  kTilde,
  kQuestion,
  kStar,
  kPlus,
  kBang,
  kArrow,
  kEnd,
};

struct Lexeme {
  LexemeKind kind = LexemeKind::kEnd;
  std::string_view text;  // into the source text
  TextPos pos;
};

// Maps byte offsets of a text to line and column (columns count code points). Queries at rising
// offsets on one line (the lexer's order) continue from the previous one, so a grammar written
// on one long line costs linear time, not a scan from the line's start per lexeme.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  TextPos position(std::size_t offset) const;

 private:
  std::string_view text_;
  std::vector<std::size_t> line_starts_;
  // The last answer: its offset, line (1-based) and column.
  mutable std::size_t last_offset_ = 0;
  mutable TextPos last_{1, 1};
};

// A human name for a lexeme kind, for messages ("')'", "end of line").
std::string describe(const Lexeme& lexeme);

// Lexes the whole text; the result always ends with kNewline, kEnd. Throws GrammarError
// (located in `file`) for invalid UTF-8, a stray character, an unterminated string or regexp, a
// malformed name or an unknown directive.
std::vector<Lexeme> lex_lark(std::string_view text, const std::string& file);

}  // namespace glrmask::lark
