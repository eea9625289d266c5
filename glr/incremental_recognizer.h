// Lexer and GLR parser driven together over a byte stream, one chunk at a time, with the exact
// "can this text still be completed?" test the decoding Session needs after every token. The
// state between chunks is a ParsePosition, a plain value; the recognizer itself is immutable and
// shared by all sessions of a grammar (and all threads).
//
// docs/glr.md states the semantics: how emitted tokens feed the parser (ties, %ignore, skippable
// terminals) and what "viable" means.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/glr_parser.h"
#include "glr/gss.h"
#include "glr/indenter.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_fork.h"

namespace glrmask::glr {

// With a post-lexer: one state the indenter may be in, and the stacks of the token streams that
// lead to it. Several exist only after lexer ties that drive the indenter differently (Python's
// `# comment` lexes as both the ignored COMMENT and the newline _NL).
struct IndentedStacks {
  IndenterState indenter;
  GssHeads heads;
};

// Where the text stands after some bytes: the parser stacks for the tokens emitted so far and the
// lexer's configuration inside the lexeme that follows them.
struct ParsePosition {
  GssHeads heads;  // with a post-lexer: the union of the branches' heads
  lexer::LexerConfiguration lexer;
  std::uint64_t offset = 0;        // bytes consumed
  std::uint64_t lexeme_begin = 0;  // where the lexeme the lexer is inside began
  // With a post-lexer only (CompiledGrammar::indenter()): the branches, sorted by indenter state,
  // one per state; and the indentation summary of the current lexeme's accepted prefix, the
  // bytes [lexeme_begin, offset - lexer.pending.size()), which earlier commits no longer hold.
  std::vector<IndentedStacks> branches;
  IndentScan accepted_scan;
};

// Why a text was rejected, for the error message.
struct Rejection {
  enum class Kind : std::uint8_t {
    kNoTerminal,       // the lexer found no terminal for bytes [begin, end]
    kUnexpectedToken,  // the token [begin, end) (all alternatives of `label`) cannot be parsed
    kDeadEnd,          // the lexeme from `begin` can only become terminals the parser refuses
    kIncomplete,       // the input ended before a complete sentence
    kIndentation,      // the post-lexer refused the token [begin, end) (`detail` says why)
  };
  Kind kind = Kind::kIncomplete;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  lexer::LabelId label = 0;  // kUnexpectedToken
  std::string lexeme;        // the bytes from `begin` that were seen
  GssHeads heads;            // the stacks where the offending lexeme began
  std::string detail;        // kIndentation
};

class IncrementalRecognizer {
 public:
  explicit IncrementalRecognizer(std::shared_ptr<const CompiledGrammar> grammar,
                                 ParserLimits limits = {});

  const CompiledGrammar& grammar() const { return *grammar_; }
  const std::shared_ptr<const CompiledGrammar>& grammar_ptr() const { return grammar_; }
  const GlrParser& parser() const { return parser_; }

  ParsePosition start() const;
  // One representative byte per class of bytes the lexer cannot tell apart, ascending.
  const std::vector<std::uint8_t>& byte_classes() const { return byte_classes_; }

  // Feeds `bytes`: lexes them, parses every token that became final, then checks that the text
  // is still viable. On success `position` has advanced; on failure it is unspecified and, when
  // `why` is given, *why says what went wrong.
  bool advance(ParsePosition& position, std::string_view bytes, Rejection* why = nullptr) const;

  // Whether some continuation (possibly empty) makes the text a sentence.
  // Exactly the Terminal DWA's rule (lexer/terminal_dwa/terminal_dwa.h) for a token with no bytes.
  bool is_viable(const ParsePosition& position) const;
  // Whether the text is a sentence as it stands: the lexer flushed, $END accepted.
  bool is_accepting(const ParsePosition& position) const;

  // Feeds one token of the lexer (all alternatives of `label`) to the stacks; false when none
  // parses. %ignore'd alternatives are "skip"; a skippable terminal no stack can shift is skipped.
  bool feed_token(GssHeads& heads, lexer::LabelId label) const;
  // Whether a lexeme becoming `terminal` could be taken by the stacks: it is ignored, skippable,
  // or some stack shifts it after its reductions.
  bool can_take(std::span<const GssNodeRef> heads, SymbolId terminal) const;

  // With an indenter (grammar().indenter() set; the mask engines use these): feeds one lexed
  // token, with the summary of its text, to every branch as advance() does, false when no
  // branch takes it; and whether some branch lets the text go on after the lexer fork `fork`
  // (the viability rule of docs/indenter.md).
  bool feed_indented(std::vector<IndentedStacks>& branches, lexer::LabelId label,
                     IndentScan text) const;
  bool indented_allows(const std::vector<IndentedStacks>& branches,
                       const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork) const;

  // "NAME", "\"(\"" (a literal) or "end of input", for messages.
  std::string describe_terminal(SymbolId terminal) const;
  // The terminals some stack can shift, and "end of input" when it accepts, as one line.
  std::string describe_expected(std::span<const GssNodeRef> heads) const;
  // The grammar's name of a terminal ("$END" for the end of input), for programs.
  std::string terminal_name(SymbolId terminal) const;

 private:
  // How tokens reach the stacks without a post-lexer and through Python's indenter
  // (glr/post_lexing.h). The bookkeeping below is written once over either.
  class IdentityPostLexing;
  class IndenterPostLexing;

  template <typename PostLexing>
  bool advance_through(const PostLexing& post, ParsePosition& position, std::string_view bytes,
                       Rejection* why) const;
  template <typename PostLexing>
  bool viable_through(const PostLexing& post, const ParsePosition& position) const;
  template <typename PostLexing>
  bool accepting_through(const PostLexing& post, const ParsePosition& position) const;

  // Whether, after the labels that produced `heads`, the lexer fork lets the text go on: some
  // terminal it can emit next is takeable, or it can end and the stacks accept the end.
  bool fork_allows(const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork,
                   std::span<const GssNodeRef> heads) const;
  bool can_shift(std::span<const GssNodeRef> heads, SymbolId terminal) const;
  bool any_takeable(const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork,
                    std::span<const GssNodeRef> heads) const;

  std::shared_ptr<const CompiledGrammar> grammar_;
  GlrParser parser_;
  std::vector<std::uint8_t> byte_classes_;  // one representative byte per lexer byte class
  std::vector<char> ignored_;               // per terminal: %ignore'd
  std::vector<char> skippable_;             // per terminal: ParseOptions::skippable
  const IndenterSpec* indenter_;            // the grammar's post-lexer, or nullptr
};

}  // namespace glrmask::glr
