// Lexes a byte stream fed in arbitrary chunks, producing tokens with absolute byte offsets.
// Feeding a text in one chunk or byte by byte gives the same tokens.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "lexer/lexer_configuration.h"
#include "lexer/lexer_dfa.h"

namespace glrmask::lexer {

struct Token {
  LabelId label;  // LexerDfa::label_terminals(label) are the alternatives
  uint64_t begin;
  uint64_t end;
};

class StreamingLexer {
 public:
  // `dfa` must outlive the lexer. Tokens of %ignore'd terminals are dropped unless `keep_ignored`.
  explicit StreamingLexer(const LexerDfa& dfa, bool keep_ignored = false);

  // Appends the tokens that became final. Throws glrmask::Error naming the byte offset when no
  // terminal can produce the bytes; the lexer must not be used after that.
  void feed(std::string_view chunk, std::vector<Token>& out);
  // End of input: flushes the remaining tokens. Throws glrmask::Error when the input ends inside
  // a lexeme that no terminal completes. Afterwards the lexer is ready for a new input.
  void finish(std::vector<Token>& out);

  const LexerConfiguration& configuration() const { return configuration_; }
  uint64_t bytes_fed() const { return fed_; }

 private:
  void deliver(uint64_t chunk_offset, std::vector<Token>& out);
  [[noreturn]] void fail(uint64_t chunk_offset, const LexFailure& failure) const;

  const LexerDfa& dfa_;
  bool keep_ignored_;
  LexerConfiguration configuration_;
  uint64_t fed_ = 0;          // bytes fed so far
  uint64_t token_begin_ = 0;  // where the next token begins
  std::vector<EmittedToken> emitted_;
};

// Lexes a whole text at once.
std::vector<Token> lex_text(const LexerDfa& dfa, std::string_view text, bool keep_ignored = false);

}  // namespace glrmask::lexer
