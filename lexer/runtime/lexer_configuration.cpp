#include "lexer/runtime/lexer_configuration.h"

#include <algorithm>
#include <boost/container_hash/hash.hpp>
#include <utility>

namespace glrmask::lexer {

size_t LexerConfigurationHash::operator()(const LexerConfiguration& configuration) const {
  size_t seed = 0;
  boost::hash_combine(seed, configuration.state);
  boost::hash_combine(seed, configuration.accepted);
  boost::hash_combine(seed, configuration.pending);
  return seed;
}

LexerConfiguration initial_configuration(const LexerDfa& dfa) {
  LexerConfiguration configuration;
  configuration.state = dfa.start_state();
  return configuration;
}

namespace {

// Positions are relative to the chunk start; the bytes carried over in `pending` sit at negative
// positions just before it, so a fall-back can rewind into them.
std::optional<LexFailure> run(const LexerDfa& dfa, LexerConfiguration& configuration,
                              std::string_view chunk, bool at_end_of_input,
                              std::vector<EmittedLexeme>& out) {
  const std::string carried = std::move(configuration.pending);
  const auto carried_size = static_cast<int64_t>(carried.size());
  const auto chunk_size = static_cast<int64_t>(chunk.size());
  auto byte_at = [&](int64_t position) {
    return static_cast<uint8_t>(position < 0 ? carried[static_cast<size_t>(carried_size + position)]
                                             : chunk[static_cast<size_t>(position)]);
  };
  auto bytes_between = [&](int64_t from, int64_t to) {
    std::string bytes;
    if (from < 0) {
      bytes.append(carried, static_cast<size_t>(carried_size + from),
                   static_cast<size_t>(std::min<int64_t>(to, 0) - from));
    }
    if (to > 0) {
      const int64_t begin = std::max<int64_t>(from, 0);
      bytes.append(chunk.substr(static_cast<size_t>(begin), static_cast<size_t>(to - begin)));
    }
    return bytes;
  };

  const uint32_t start = dfa.start_state();
  uint32_t state = configuration.state;
  LabelId accepted = configuration.accepted;
  int64_t lexeme_begin = -carried_size;  // meaningful while nothing is accepted
  int64_t accept_end = -carried_size;    // meaningful once something is accepted
  int64_t position = 0;
  // The lexeme is in a state whose match is held back one byte (LexerDfa::tentative_label): it
  // stands unless the next byte is the state's veto byte.
  bool holding = dfa.has_tentative_states() && dfa.is_tentative(state);
  for (;;) {
    if (holding) {
      holding = false;
      if (position < chunk_size ? byte_at(position) != dfa.veto_byte(state) : at_end_of_input) {
        accepted = dfa.tentative_label(state);
        accept_end = position;
      } else if (position >= chunk_size) {
        break;  // the next chunk decides
      }
    }
    if (position < chunk_size) {
      const uint32_t next = dfa.next(state, byte_at(position));
      if (next != LexerDfa::kDeadState) {
        state = next;
        ++position;
        if (const LabelId label = dfa.label(next); label != LexerDfa::kNoLabel) {
          accepted = label;
          accept_end = position;
          if (dfa.is_final(next)) {  // nothing can extend it: emit without waiting
            out.push_back({label, position});
            state = start;
            accepted = LexerDfa::kNoLabel;
            lexeme_begin = position;
          }
        } else if (dfa.has_tentative_states() && dfa.is_tentative(next)) {
          holding = true;
        }
        continue;
      }
    } else if (!at_end_of_input) {
      break;
    } else if (accepted == LexerDfa::kNoLabel && lexeme_begin == position) {
      break;  // the input ended between two lexemes
    }
    // The DFA died at `position` (or the input ended there): fall back to the last match.
    if (accepted == LexerDfa::kNoLabel) {
      LexFailure failure{lexeme_begin,
                         position,
                         position >= chunk_size,
                         state,
                         bytes_between(lexeme_begin, position),
                         -1};
      if (position < chunk_size) failure.offending_byte = byte_at(position);
      return failure;
    }
    out.push_back({accepted, accept_end});
    position = accept_end;
    lexeme_begin = accept_end;
    state = start;
    accepted = LexerDfa::kNoLabel;
  }

  configuration.state = state;
  configuration.accepted = accepted;
  configuration.pending =
      bytes_between(accepted != LexerDfa::kNoLabel ? accept_end : lexeme_begin, chunk_size);
  return std::nullopt;
}

}  // namespace

std::optional<LexFailure> feed(const LexerDfa& dfa, LexerConfiguration& configuration,
                               std::string_view chunk, std::vector<EmittedLexeme>& out) {
  return run(dfa, configuration, chunk, /*at_end_of_input=*/false, out);
}

std::optional<LexFailure> finish(const LexerDfa& dfa, LexerConfiguration& configuration,
                                 std::vector<EmittedLexeme>& out) {
  std::optional<LexFailure> failure = run(dfa, configuration, {}, /*at_end_of_input=*/true, out);
  if (!failure) configuration = initial_configuration(dfa);
  return failure;
}

}  // namespace glrmask::lexer
