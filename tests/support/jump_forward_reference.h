// The reference for jump-forward: the longest common prefix of all completions, computed by the
// oracle over a vocabulary of the 256 single bytes. At each point the oracle's mask says which
// bytes keep the text viable and whether it is already complete; the prefix goes on while the
// text is incomplete and exactly one byte is viable. This shares nothing with the facade's
// implementation but the session's viability test (which defines every mask).
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api/src/matcher_impl.h"
#include "glr/session.h"
#include "glrmask/glrmask.hpp"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"

namespace glrmask::testing {

// Token i < 256 is the byte i; 256 is the stop id.
inline Tokenizer byte_tokenizer() {
  std::vector<std::string> pieces;
  for (int byte = 0; byte < 256; ++byte) pieces.emplace_back(1, static_cast<char>(byte));
  pieces.emplace_back("<eos>");
  return Tokenizer::from_vocab(pieces, VocabType::kRaw, {256});
}

// The forced string after `matcher`'s text, by the oracle over single bytes.
inline std::string oracle_forced_string(const Matcher& matcher, std::size_t max_bytes = 1 << 12) {
  static const Tokenizer bytes = byte_tokenizer();
  const Vocabulary& vocabulary = bytes.impl().vocabulary;
  // The oracle asks the session about each token's bytes; a clone of the matcher's session
  // answers for the 256 bytes of this vocabulary.
  glr::Session state = matcher.impl().session.clone();
  std::string forced;
  if (state.is_finished()) return forced;
  mask::OracleEngine oracle(vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  while (forced.size() < max_bytes) {
    oracle.fill_mask(state, mask.words());
    if (mask.test(256)) break;  // complete: the empty completion
    int only = -1;
    std::size_t viable = 0;
    for (int byte = 0; byte < 256; ++byte)
      if (mask.test(static_cast<TokenId>(byte))) {
        only = byte;
        ++viable;
      }
    if (viable != 1) break;
    const char c = static_cast<char>(only);
    REQUIRE(state.try_commit_bytes(std::string_view(&c, 1)));
    forced.push_back(c);
  }
  return forced;
}

// find_jump_forward_tokens(): tokens that spell exactly `forced` and that a clone accepts in
// order.
inline void check_forced_tokens(Matcher& matcher, const std::string& forced) {
  const std::vector<std::int32_t> tokens = matcher.find_jump_forward_tokens();
  const Tokenizer& tokenizer = matcher.constraint().tokenizer();
  CHECK(tokenizer.decode(tokens) == forced);
  Matcher trial = matcher.clone();
  for (const std::int32_t token : tokens) REQUIRE(trial.accept_token(token));
}

}  // namespace glrmask::testing
