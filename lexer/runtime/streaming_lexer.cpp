#include "lexer/runtime/streaming_lexer.h"

#include <fmt/format.h>

#include <string>

#include "lib/core/error.h"
#include "lib/core/escape.h"

namespace glrmask::lexer {
namespace {

std::string render_bytes(std::string_view bytes) {
  return escape_bytes(bytes, {.max_bytes = 40});
}

std::string render_terminals(const LexerDfa& dfa, uint32_t state) {
  const auto viable = dfa.viable_terminals(state);
  if (viable.empty()) return "no terminal";
  std::string text;
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < viable.size() && i < kShown; ++i) {
    if (i > 0) text += ", ";
    text += dfa.terminals()[viable[i]].name;
  }
  if (viable.size() > kShown) text += fmt::format(" and {} more", viable.size() - kShown);
  return text;
}

}  // namespace

StreamingLexer::StreamingLexer(const LexerDfa& dfa, bool keep_ignored)
    : dfa_(dfa), keep_ignored_(keep_ignored), configuration_(initial_configuration(dfa)) {}

void StreamingLexer::feed(std::string_view chunk, std::vector<Lexeme>& out) {
  // Large chunks go through in slices so that the intermediate lexeme buffer stays in cache
  // (chunking never changes the lexemes).
  constexpr size_t kSlice = size_t{1} << 14;
  for (size_t begin = 0; begin < chunk.size(); begin += kSlice) {
    const std::string_view slice = chunk.substr(begin, kSlice);
    const uint64_t slice_offset = fed_;
    emitted_.clear();
    const std::optional<LexFailure> failure = lexer::feed(dfa_, configuration_, slice, emitted_);
    deliver(slice_offset, out);
    if (failure) fail(slice_offset, *failure);
    fed_ += slice.size();
  }
}

void StreamingLexer::finish(std::vector<Lexeme>& out) {
  emitted_.clear();
  const std::optional<LexFailure> failure = lexer::finish(dfa_, configuration_, emitted_);
  deliver(fed_, out);
  if (failure) fail(fed_, *failure);
  fed_ = 0;
  lexeme_begin_ = 0;
}

void StreamingLexer::deliver(uint64_t chunk_offset, std::vector<Lexeme>& out) {
  for (const EmittedLexeme& lexeme : emitted_) {
    const auto end = static_cast<uint64_t>(static_cast<int64_t>(chunk_offset) + lexeme.end);
    if (keep_ignored_ || !dfa_.label_is_ignored(lexeme.label)) {
      out.push_back({lexeme.label, lexeme_begin_, end});
    }
    lexeme_begin_ = end;
  }
}

void StreamingLexer::fail(uint64_t chunk_offset, const LexFailure& failure) const {
  const auto at = [&](int64_t relative) {
    return static_cast<uint64_t>(static_cast<int64_t>(chunk_offset) + relative);
  };
  const uint64_t offset = at(failure.offset);
  if (failure.at_end_of_input) {
    throw Error(fmt::format("lexer error at byte offset {} (end of input): the lexeme {} that "
                            "began at byte offset {} is incomplete; it could still become {}",
                            offset, render_bytes(failure.lexeme), at(failure.lexeme_begin),
                            render_terminals(dfa_, failure.state)),
                ErrorCode::kRejected, ErrorLocation::at_byte(static_cast<int64_t>(offset)));
  }
  const std::string byte = render_bytes(std::string(1, static_cast<char>(failure.offending_byte)));
  if (failure.lexeme.empty()) {
    throw Error(
        fmt::format("lexer error at byte offset {}: no terminal starts with byte {}", offset, byte),
        ErrorCode::kRejected, ErrorLocation::at_byte(static_cast<int64_t>(offset)));
  }
  throw Error(
      fmt::format(
          "lexer error at byte offset {}: byte {} cannot continue the lexeme {} that began at byte "
          "offset {}; it could still become {}",
          offset, byte, render_bytes(failure.lexeme), at(failure.lexeme_begin),
          render_terminals(dfa_, failure.state)),
      ErrorCode::kRejected, ErrorLocation::at_byte(static_cast<int64_t>(offset)));
}

std::vector<Lexeme> lex_text(const LexerDfa& dfa, std::string_view text, bool keep_ignored) {
  StreamingLexer lexer(dfa, keep_ignored);
  std::vector<Lexeme> lexemes;
  lexer.feed(text, lexemes);
  lexer.finish(lexemes);
  return lexemes;
}

}  // namespace glrmask::lexer
