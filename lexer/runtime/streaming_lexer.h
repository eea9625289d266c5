// Lexes a byte stream fed in arbitrary chunks, producing lexemes with absolute byte offsets.
// Feeding a text in one chunk or byte by byte gives the same lexemes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

struct Lexeme {
  LabelId label;  // LexerDfa::label_terminals(label) are the alternatives
  uint64_t begin;
  uint64_t end;
};

class StreamingLexer {
 public:
  // `dfa` must outlive the lexer. Lexemes of %ignore'd terminals are dropped unless `keep_ignored`.
  explicit StreamingLexer(const LexerDfa& dfa, bool keep_ignored = false);

  // Appends the lexemes that became final. Throws glrmask::Error naming the byte offset when no
  // terminal can produce the bytes; the lexer must not be used after that.
  void feed(std::string_view chunk, std::vector<Lexeme>& out);
  // End of input: flushes the remaining lexemes. Throws glrmask::Error when the input ends inside
  // a lexeme that no terminal completes. Afterwards the lexer is ready for a new input.
  void finish(std::vector<Lexeme>& out);

  const LexerConfiguration& configuration() const { return configuration_; }
  uint64_t bytes_fed() const { return fed_; }

 private:
  void deliver(uint64_t chunk_offset, std::vector<Lexeme>& out);
  [[noreturn]] void fail(uint64_t chunk_offset, const LexFailure& failure) const;

  const LexerDfa& dfa_;
  bool keep_ignored_;
  LexerConfiguration configuration_;
  uint64_t fed_ = 0;           // bytes fed so far
  uint64_t lexeme_begin_ = 0;  // where the next lexeme begins
  std::vector<EmittedLexeme> emitted_;
};

// Lexes a whole text at once.
std::vector<Lexeme> lex_text(const LexerDfa& dfa, std::string_view text, bool keep_ignored = false);

}  // namespace glrmask::lexer
