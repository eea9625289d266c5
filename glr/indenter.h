// Python's indenter post-lexer: between the lexer and the parser it turns the newline terminal's
// text into _INDENT/_DEDENT tokens and drops newlines inside brackets. The semantics are Lark
// 1.1.5's `lark.indenter.Indenter` (docs/indenter.md), with SynCode's settings for Python:
// newline terminal `_NL`, brackets LPAR/LSQB/LBRACE and RPAR/RSQB/RBRACE, `_INDENT`/`_DEDENT`,
// tab_len 4.
//
// For each lexed token (ignored ones never reach the indenter):
//  - a newline token at bracket depth > 0 is dropped; otherwise it is passed on, and the width of
//    its text after the last '\n' (spaces + tab_len * tabs, wherever they stand in that text) is
//    compared with the top of the indentation stack: wider pushes it and emits _INDENT;
//    narrower pops, emitting one _DEDENT per level, and must land exactly on a level;
//  - then an opening bracket increments the depth, a closing one decrements it (below 0: error);
//  - at the end of input one _DEDENT per level above 0.
// A newline token without any '\n' (Lark's `rsplit('\n', 1)[1]` fails) is an error too.
//
// This file holds the state machine only; the incremental recognizer (incremental_recognizer.h)
// drives the parser with it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "glr/ids.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::glr {

// The post-lexers glrmask provides (ParseOptions::postlex).
enum class PostLexer : std::uint8_t {
  kNone,
  kPythonIndenter,  // `--postlex python`
};

// "none" / "python", and back (nullopt-like: returns false for an unknown name).
std::string_view post_lexer_name(PostLexer post_lexer);
bool parse_post_lexer(std::string_view name, PostLexer& out);

// The indentation-relevant summary of some text: whether it holds a '\n', and the width of what
// follows the last one (or of all of it when there is none). Composable, so a token's summary can
// be built from pieces of text seen in different commits.
struct IndentScan {
  bool has_newline = false;
  std::uint32_t width = 0;

  bool operator==(const IndentScan&) const = default;
};

IndentScan scan_indent(IndentScan before, std::string_view bytes, std::uint32_t tab_len);
// The summary of `first` followed by `second`.
IndentScan append_scan(IndentScan first, IndentScan second);

// The indenter's configuration, resolved to terminal ids of one grammar.
struct IndenterSpec {
  SymbolId newline = 0;
  SymbolId indent = 0;
  SymbolId dedent = 0;
  std::vector<SymbolId> open_brackets;   // sorted
  std::vector<SymbolId> close_brackets;  // sorted
  std::uint32_t tab_len = 4;

  bool is_open(SymbolId terminal) const;
  bool is_close(SymbolId terminal) const;
  // Never lexed: produced by the indenter only.
  bool is_produced(SymbolId terminal) const { return terminal == indent || terminal == dedent; }
};

// SynCode's Python settings on `grammar`. Throws glrmask::Error naming the grammar file when
// _NL is missing or %declare'd, when _INDENT or _DEDENT is missing or has a pattern, or when a
// %declare'd terminal other than those two is used (nothing would produce it). Bracket terminals
// the grammar lacks are left out (Lark compares type names, so they never match).
IndenterSpec python_indenter_spec(const GrammarModel& grammar);

// The indentation stack and bracket depth. A small value: sessions copy it with every position.
struct IndenterState {
  std::uint32_t bracket_depth = 0;
  std::vector<std::uint32_t> levels;  // pushed widths above the implicit 0, increasing

  std::uint32_t top() const { return levels.empty() ? 0 : levels.back(); }
  bool operator==(const IndenterState&) const = default;
  auto operator<=>(const IndenterState&) const = default;
};

// Why the indenter refused a token.
enum class IndenterError : std::uint8_t {
  kNone,
  kUnknownDedent,    // a newline narrower than the top that lands on no level of the stack
  kNoNewline,        // a newline token whose text holds no '\n'
  kUnbalancedClose,  // a closing bracket at depth 0
};

// Runs one lexed token through the indenter: appends the terminals the parser gets (none, the
// token, or the newline followed by _INDENT or _DEDENTs) to `out`. `text` is the token's
// summary; only the newline terminal reads it. On an error `state` and `out` are unspecified.
IndenterError indenter_step(const IndenterSpec& spec, IndenterState& state, SymbolId terminal,
                            IndentScan text, std::vector<SymbolId>& out);

// "the newline dedents to width 2, which is not on the indentation stack {0, 4}" and the like.
std::string describe_indenter_error(IndenterError error, const IndenterState& before,
                                    IndentScan text);

}  // namespace glrmask::glr
