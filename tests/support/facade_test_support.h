// Helpers for the tests of the library facade (tests/api/): a small vocabulary over an alphabet
// with two stop ids and a special token, and the comparison of a constraint's matcher with the
// oracle at every viable prefix.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "api/src/constraint_impl.h"
#include "glr/session.h"
#include "glrmask/glrmask.hpp"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_test_support.h"

namespace glrmask::testing {

// Every string of 1 or 2 alphabet bytes and the runs of three (tokens cross lexeme boundaries),
// then "</s>" and "<|eot|>" as two stop ids and "<pad>" as a special token.
struct FixtureVocab {
  std::vector<std::string> pieces;
  std::int32_t stop = 0, second_stop = 0, pad = 0;
};

inline FixtureVocab fixture_vocab(const std::string& alphabet) {
  FixtureVocab vocab;
  for (const std::string& s : strings_up_to(alphabet, 2))
    if (!s.empty()) vocab.pieces.push_back(s);
  for (const char c : alphabet) vocab.pieces.push_back(std::string(3, c));
  vocab.stop = static_cast<std::int32_t>(vocab.pieces.size());
  vocab.pieces.push_back("</s>");
  vocab.second_stop = static_cast<std::int32_t>(vocab.pieces.size());
  vocab.pieces.push_back("<|eot|>");
  vocab.pad = static_cast<std::int32_t>(vocab.pieces.size());
  vocab.pieces.push_back("<pad>");
  return vocab;
}

inline Tokenizer fixture_tokenizer(const FixtureVocab& vocab) {
  return Tokenizer::from_vocab(vocab.pieces, VocabType::kRaw, {vocab.stop, vocab.second_stop},
                               {vocab.pad});
}

inline bool bit(std::span<const std::uint32_t> words, std::int32_t token) {
  return ((words[static_cast<std::size_t>(token) / 32] >> (token % 32)) & 1u) != 0;
}

// The oracle's mask after `prefix`, with the second stop id added as the facade promises.
inline std::vector<std::uint32_t> oracle_mask(const Constraint& constraint,
                                              const FixtureVocab& vocab, std::string_view prefix) {
  const auto& data = constraint.impl();
  glr::Session session(data.recognizer, &data.vocabulary());
  REQUIRE(session.try_commit_bytes(prefix));
  mask::OracleEngine oracle(data.vocabulary(), {.sequential = true});
  DenseMask mask(static_cast<std::uint32_t>(data.vocabulary().size()));
  oracle.fill_mask(session, mask.words());
  std::vector<std::uint32_t> words(mask.words().begin(), mask.words().end());
  if (bit(words, vocab.stop)) words[vocab.second_stop / 32] |= 1u << (vocab.second_stop % 32);
  return words;
}

// Compares the matcher's masks (fill into a padded row, and the view) with the oracle's at every
// viable prefix of up to `max_prefix` alphabet bytes; returns the prefixes compared.
inline std::size_t compare_with_oracle(const Constraint& constraint, const FixtureVocab& vocab,
                                       const std::string& alphabet, std::size_t max_prefix) {
  Matcher matcher(constraint);
  const std::size_t words = matcher.bitmask_words();
  std::vector<std::int32_t> row(words + 3, -1);  // a model's logits padded past the vocabulary
  std::size_t compared = 0, accepting = 0;
  for (const std::string& prefix : strings_up_to(alphabet, max_prefix)) {
    matcher.reset();
    if (!matcher.accept_bytes(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    const std::vector<std::uint32_t> expected = oracle_mask(constraint, vocab, prefix);
    std::fill(row.begin(), row.end(), -1);
    matcher.fill_next_token_bitmask(row);
    for (std::size_t w = 0; w < words; ++w)
      REQUIRE(static_cast<std::uint32_t>(row[w]) == expected[w]);
    for (std::size_t w = words; w < row.size(); ++w) REQUIRE(row[w] == 0);
    const std::span<const std::uint32_t> view = matcher.next_token_mask();
    REQUIRE(std::vector<std::uint32_t>(view.begin(), view.end()) == expected);
    CHECK(bit(expected, vocab.stop) == matcher.is_accepting());
    CHECK_FALSE(bit(expected, vocab.pad));
    accepting += matcher.is_accepting() ? 1 : 0;
    ++compared;
  }
  CHECK(compared > 5);
  CHECK(accepting > 0);
  return compared;
}

// The same for a fixture of tests/fixtures/glr_session compiled for `engine`.
inline std::size_t compare_with_oracle(const std::string& fixture, const std::string& alphabet,
                                       std::size_t max_prefix, Engine engine,
                                       const GrammarOptions& options = {}) {
  INFO("fixture " << fixture << ", engine " << engine_name(engine));
  const FixtureVocab vocab = fixture_vocab(alphabet);
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint = Constraint::from_lark_file(fixtures_dir() / "glr_session" / fixture,
                                                           tokenizer, options, {.engine = engine});
  REQUIRE(constraint.engine() == engine);
  return compare_with_oracle(constraint, vocab, alphabet, max_prefix);
}

}  // namespace glrmask::testing
