// Parses a text with the GLR parser and builds its shared packed parse forest (parse_forest.h)
// over the grammar as written (forest_grammar.h). The lexer's tokens feed the parser as in a
// decoding session (docs/glr.md, "Tokens into the parser"): each terminal of a token's label is an
// alternative, an %ignore'd alternative skips the token, a skippable terminal no stack can shift
// is skipped; the stacks of the alternatives are merged. A skipped token has no leaf.
//
// A post-lexer (Python's indenter) is not supported here: its tokens are not the lexer's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "glr/analysis/derivation_count.h"
#include "glr/analysis/forest_grammar.h"
#include "glr/forest_builder.h"
#include "glr/glr_parser.h"
#include "glr/gss.h"
#include "glr/parse_forest.h"
#include "lexer/runtime/streaming_lexer.h"

namespace glrmask::glr {

// Token by token; the forest grows as tokens are fed.
class ForestParser {
 public:
  // `grammar` must outlive the parser. Throws glrmask::Error for a grammar with a post-lexer.
  explicit ForestParser(const ForestGrammar& grammar);
  ForestParser(const ForestParser&) = delete;
  ForestParser& operator=(const ForestParser&) = delete;

  // Feeds the next token of the lexer (its label's terminals are the alternatives). False when
  // no alternative parses: the token is a syntax error and the parser keeps its stacks.
  bool feed(const lexer::Lexeme& token);
  // Ends the input: the forest's root when the tokens form a sentence (also set as
  // forest().root()), else nullopt. Feeding after finish() is an error.
  std::optional<ForestNodeId> finish();

  const ParseForest& forest() const { return forest_; }
  const std::vector<lexer::Lexeme>& lexemes() const { return lexemes_; }
  const GssHeads& heads() const { return heads_; }

  // The number of distinct parser stacks with their trees over the tokens so far: the sum over
  // every path from a head to the bottom of the GSS of the product of its edges' tree counts.
  // For a finished sentence the stacks are the single one holding the root, so this is the
  // number of derivations of the text; for a prefix it counts its live readings.
  DerivationCount live_readings();
  // The number of trees of the root (after a successful finish()).
  DerivationCount derivations();

  // Up to `limit` distinct readings of the stacks' tops: per GSS path from a head, the forest
  // nodes its top `depth` edges carry (top first; fewer where the stack is shorter). Paths whose
  // tops carry the same nodes are one reading here.
  std::vector<std::vector<ForestNodeId>> stack_tops(std::size_t limit, std::size_t depth) const;

 private:
  const ForestGrammar& grammar_;
  GlrParser parser_;
  ParseForest forest_;
  ForestBuilder builder_;
  DerivationCounter counter_;
  GssHeads heads_;
  std::vector<lexer::Lexeme> lexemes_;
  std::vector<char> ignored_;    // per terminal
  std::vector<char> skippable_;  // per terminal
  bool finished_ = false;
};

struct ForestParse {
  ParseForest forest;
  std::vector<lexer::Lexeme> lexemes;  // what the parser was fed (the lexer's, %ignore'd dropped)
  ForestNodeId root = 0;
  DerivationCount derivations;
};

// Lexes and parses a whole text. Throws glrmask::Error naming the byte offset when the text does
// not lex, when a token cannot be parsed, or when the text ends before a complete sentence.
ForestParse parse_forest(const ForestGrammar& grammar, std::string_view text);

// The forest of a sequence of terminals (no text, no lexer) under any table, e.g. to check a
// counterexample of the conflict report: one token per terminal, label 0, at byte offsets equal
// to its index. nullopt when the terminals are not a sentence.
std::optional<ForestParse> parse_terminals(const LrTable& table,
                                           std::span<const SymbolId> terminals);

}  // namespace glrmask::glr
