// Where a lexer is between two bytes, as a small value: the DFA state of the current lexeme, the
// label of its longest accepted prefix, and the bytes read after that prefix. Two equal
// configurations lex every continuation identically, so code that enumerates lexer situations
// between LLM tokens can hash and deduplicate them. Absolute offsets are kept by the caller
// (StreamingLexer), not here, for the same reason.
//
// Semantics (docs/lexer.md): maximal munch with fall-back. Bytes extend the current lexeme while
// the DFA lives; when it dies, the lexeme of the last accepting prefix is emitted and the bytes
// after it are lexed again from the start state. A lexeme is emitted as soon as it is final: when
// the DFA dies after it, when its state has no live successor, or at finish().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

struct LexerConfiguration {
  uint32_t state = 0;                     // DFA state after all bytes of the current lexeme
  LabelId accepted = LexerDfa::kNoLabel;  // label of the longest accepted prefix, if any
  std::string pending;  // bytes after that prefix (the whole lexeme when nothing was accepted)

  bool operator==(const LexerConfiguration&) const = default;
};

struct LexerConfigurationHash {
  size_t operator()(const LexerConfiguration& configuration) const;
};

LexerConfiguration initial_configuration(const LexerDfa& dfa);

// A lexeme that became final. `end` is relative to the start of the chunk being fed, so it is
// negative or zero when the lexeme ended in bytes carried over from earlier chunks. Ignored
// terminals are emitted too (LexerDfa::label_is_ignored tells).
struct EmittedLexeme {
  LabelId label;
  int64_t end;
};

// Why lexing stopped: no terminal can produce the lexeme that begins at `lexeme_begin` and has
// reached `offset` (both relative to the chunk start, as in EmittedLexeme).
struct LexFailure {
  int64_t lexeme_begin;
  int64_t offset;           // the byte that could not be read, or the end of input
  bool at_end_of_input;     // true: the input ended inside the lexeme
  uint32_t state;           // DFA state before the offending byte / the end
  std::string lexeme;       // the bytes from lexeme_begin to offset
  int offending_byte = -1;  // the byte at `offset`, -1 at the end of input
};

// Feeds `chunk`, appending every lexeme that became final to `out`. On failure the configuration
// is unspecified.
std::optional<LexFailure> feed(const LexerDfa& dfa, LexerConfiguration& configuration,
                               std::string_view chunk, std::vector<EmittedLexeme>& out);

// Ends the input: emits the remaining lexemes (re-lexing after fall-backs as needed) and resets
// the configuration to the initial one. Lexeme ends are relative to the end of input.
std::optional<LexFailure> finish(const LexerDfa& dfa, LexerConfiguration& configuration,
                                 std::vector<EmittedLexeme>& out);

}  // namespace glrmask::lexer
