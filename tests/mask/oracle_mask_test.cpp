// The oracle mask engine against a brute-force definition written here (enumerate texts, lex them,
// decide with Earley), and with the Llama-3 vocabulary on a real grammar (rollback, parallel =
// sequential); the teacher-forced sweeps are in oracle_mask_corpus_test.cpp.
#include <catch2/catch.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::load_session_fixture;
using glrmask::testing::reference_verdict;
using glrmask::testing::strings_up_to;
using glrmask::testing::tiny_vocabulary;

namespace {

// Brute force, independent of the session: S = sentences of length <= L (lex_text + Earley),
// V = their byte prefixes. For a prefix x and token v with |x v| <= L - K, where K bounds the
// completion a viable text of the grammar needs, "x v can still become a sentence" is exactly
// "x v is in V". The oracle's mask after committing x must be that, plus EOS iff x is in S.
void check_oracle_brute_force(const std::string& fixture, const std::string& alphabet,
                              std::size_t max_length, std::size_t completion) {
  INFO("fixture " << fixture);
  const auto grammar = load_session_fixture(fixture);
  std::set<std::string> sentences;
  std::set<std::string> viable;
  for (const std::string& text : strings_up_to(alphabet, max_length)) {
    if (!reference_verdict(*grammar, text).accepted) continue;
    sentences.insert(text);
    for (std::size_t n = 0; n <= text.size(); ++n) viable.insert(text.substr(0, n));
  }
  // Tokens: every string of 1 or 2 alphabet bytes, and the three-byte runs of each byte.
  std::vector<std::string> tokens;
  for (const std::string& s : strings_up_to(alphabet, 2))
    if (!s.empty()) tokens.push_back(s);
  for (const char c : alphabet) tokens.push_back(std::string(3, c));
  const Vocabulary vocabulary = tiny_vocabulary(tokens);
  const TokenId eos = *vocabulary.eos();
  mask::OracleEngine oracle(vocabulary);

  const std::size_t max_prefix = max_length - completion - 3;
  std::size_t prefixes = 0;
  std::size_t allowed = 0;
  std::size_t refused = 0;
  for (const std::string& prefix : strings_up_to(alphabet, max_prefix)) {
    if (!viable.count(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    glr::Session session(grammar, &vocabulary);
    session.commit_bytes(prefix);
    const DenseMask mask = engine_mask(oracle, session, vocabulary);
    for (TokenId id = 0; id < tokens.size(); ++id) {
      INFO("token \"" << tokens[id] << "\"");
      const bool expected = viable.count(prefix + tokens[id]) != 0;
      CHECK(mask.test(id) == expected);
      (expected ? allowed : refused) += 1;
    }
    CHECK(mask.test(eos) == (sentences.count(prefix) != 0));
    CHECK_FALSE(mask.test(eos + 1));  // <pad>: special, never in a mask
    ++prefixes;
  }
  CHECK(prefixes > 5);
  CHECK(allowed > 0);
  CHECK(refused > 0);
}

}  // namespace

TEST_CASE("oracle = brute force on small grammars with a hand-made vocabulary") {
  // K: the longest completion a viable text needs (a NUMBER; a NAME and ";"; ...).
  check_oracle_brute_force("ambiguous_sum.lark", "12+ ", 8, 1);
  check_oracle_brute_force("fallback_dots.lark", "a. ", 9, 3);
  check_oracle_brute_force("keyword_ties.lark", "ifa= ", 8, 3);
  check_oracle_brute_force("ignored_tie.lark", "a# ;", 9, 4);
}

TEST_CASE("oracle: mask size is checked, a finished session allows nothing") {
  const Vocabulary vocabulary = tiny_vocabulary({"1", "+", " "});
  mask::OracleEngine oracle(vocabulary);
  CHECK(oracle.name() == "oracle");
  glr::Session session(load_session_fixture("ambiguous_sum.lark"), &vocabulary);
  std::vector<std::uint32_t> wrong(7);
  CHECK_THROWS_WITH(oracle.fill_mask(session, wrong), Catch::Contains("words"));
  session.commit(0);
  DenseMask mask = engine_mask(oracle, session, vocabulary);
  CHECK(mask.to_vector() == std::vector<TokenId>{0, 1, 2, 3});  // "1", "+", " ", EOS
  session.commit(3);                                            // EOS
  mask = engine_mask(oracle, session, vocabulary);
  CHECK(mask.count() == 0);
}

TEST_CASE(
    "oracle with Llama-3: rollback and recommit give identical masks, and parallel = sequential") {
  if (!glrmask::testing::require_data_dir("wfa_oracle_mask_test (SynCode JSON grammar)") ||
      !glrmask::testing::require_tokenizer("llama3"))
    return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  mask::OracleEngine oracle(vocabulary);
  const auto syncode = data_dir() / "grammars" / "syncode";
  const auto grammar = glr::CompiledGrammar::load_lark(syncode / "json_grammar.lark");
  const std::vector<TokenId> ids = encoder.encode(R"({"key": [1.5, "two", {"three": 3}]})");
  REQUIRE(ids.size() >= 8);
  glr::Session session(grammar, &vocabulary);
  std::vector<DenseMask> masks;
  for (std::size_t step = 0; step < 8; ++step) {
    masks.push_back(engine_mask(oracle, session, vocabulary));
    session.commit(ids[step]);
  }
  masks.push_back(engine_mask(oracle, session, vocabulary));
  session.rollback(5);
  CHECK(engine_mask(oracle, session, vocabulary) == masks[3]);
  for (std::size_t step = 3; step < 8; ++step) session.commit(ids[step]);
  CHECK(engine_mask(oracle, session, vocabulary) == masks[8]);

  mask::OracleEngine sequential(vocabulary, {.sequential = true});
  CHECK(engine_mask(sequential, session, vocabulary) == masks[8]);
}
