// The spanner engine against the oracle (the definition of a mask): bit for bit at every prefix
// of small grammars with a hand-made vocabulary (every short text the session accepts). Real JSON
// and SQL with real tokenizers: spanner_engine_corpus_test.
#include "mask/spanner/spanner_engine.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::load_session_fixture;
using glrmask::testing::strings_up_to;
using glrmask::testing::tiny_vocabulary;
using glrmask::testing::token_of;

namespace {

glr::ParseOptions skippable_eos() {
  glr::ParseOptions options;
  options.skippable = {"EOS"};
  return options;
}

std::unique_ptr<mask::MaskEngine> make_spanner(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary) {
  return std::make_unique<mask::SpannerEngine>(grammar, vocabulary);
}

// The spanner without its table: every entry fork's whole label trie walked on the real heads.
std::unique_ptr<mask::MaskEngine> make_whole_walk_spanner(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary) {
  auto spanner = std::make_unique<mask::SpannerEngine>(grammar, vocabulary);
  spanner->use_table(false);
  return spanner;
}

// The shared comparisons of tests/support/wfa_engine_comparison.h, for the spanner with and without
// its table.
void check_against_oracle(const std::string& fixture, const std::string& alphabet,
                          std::size_t max_prefix, glr::ParseOptions options = {}) {
  CHECK(glrmask::testing::compare_on_prefixes(make_spanner, fixture, alphabet, max_prefix,
                                              options) > 0);
  CHECK(glrmask::testing::compare_on_prefixes(make_whole_walk_spanner, fixture, alphabet,
                                              max_prefix, options) > 0);
}

// Commits `pieces` one by one and compares the engines after each, and before the first.
void check_pieces(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                  mask::SpannerEngine& spanner, mask::OracleEngine& oracle,
                  const Vocabulary& vocabulary, const std::vector<std::string>& pieces) {
  glr::Session session(grammar, &vocabulary);
  std::string committed;
  for (std::size_t step = 0; step <= pieces.size(); ++step) {
    INFO("after \"" << committed << "\"");
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    const DenseMask actual = engine_mask(spanner, session, vocabulary);
    for (TokenId id = 0; id < vocabulary.size(); ++id) {
      INFO("token " << id << " \"" << vocabulary.bytes(id) << "\"");
      CHECK(actual.test(id) == expected.test(id));
    }
    if (step == pieces.size()) break;
    session.commit_bytes(pieces[step]);
    committed += pieces[step];
  }
}

}  // namespace

TEST_CASE("spanner = oracle on small grammars with a hand-made vocabulary") {
  check_against_oracle("../spanner_table/nested_list.lark", "[]1, ", 6);
  check_against_oracle("../spanner_table/skippable_heads.lark", "gox \n()", 5, skippable_eos());
  check_against_oracle("ambiguous_sum.lark", "12+ ", 5);
  check_against_oracle("fallback_dots.lark", "a. ", 6);
  check_against_oracle("keyword_ties.lark", "ifa= ", 4);
  check_against_oracle("ignored_tie.lark", "a# ;", 5);
  check_against_oracle("epsilon_rules.lark", "xyz ", 5);
  check_against_oracle("cyclic.lark", "a ", 6);
  check_against_oracle("hidden_left_recursion.lark", "nxy ", 5);
  check_against_oracle("hidden_right_recursion.lark", "ab ", 6);
  check_against_oracle("start_state_lookalike.lark", "ab", 5);
  check_against_oracle("skippable_eos_nested.lark", "a(+)\n{}", 4, skippable_eos());
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  check_against_oracle("skippable_eos.lark", "a{}\n; ", 4, skippable);
}

TEST_CASE("spanner = oracle where an early match is still unconfirmed (shadowed keyword, ı)") {
  // tests/fixtures/glr_session/shadowed_keyword.lark: the cross join is dropped (its "join"
  // never lexes), and "t" + "\xc4" stays one live lexeme until "\xb1nner" forces the fall-back.
  const auto grammar = load_session_fixture("shadowed_keyword.lark");
  std::vector<std::string> tokens = {"@",     " a",   " as",  " t",   " cross",       " join",
                                     " b",    "\xc4", "\xb1", "nner", "\xc4\xb1nner", " inner",
                                     "t\xc4", "ick",  "tick", "x"};
  for (const char c : std::string("@abcfijkmnorst \xc4\xb1")) tokens.push_back(std::string(1, c));
  const Vocabulary vocabulary = tiny_vocabulary(tokens);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::SpannerEngine spanner(grammar, vocabulary);
  check_pieces(grammar, spanner, oracle, vocabulary,
               {"@", " a", " as", " t", "\xc4", "\xb1", "nner", " join", " b"});
  check_pieces(grammar, spanner, oracle, vocabulary, {"@", " a", " as", " t", " join", " b"});
  check_pieces(grammar, spanner, oracle, vocabulary, {"t", "\xc4", "\xb1", "c", "k"});

  glr::Session session(grammar, &vocabulary);
  session.commit_bytes("@ a as t");
  const DenseMask mask = engine_mask(spanner, session, vocabulary);
  CHECK_FALSE(mask.test(token_of(vocabulary, " cross")));
  CHECK(mask.test(token_of(vocabulary, "\xc4")));
  CHECK(mask.test(token_of(vocabulary, "\xc4\xb1nner")));
  CHECK(mask.test(token_of(vocabulary, " join")));
}

TEST_CASE("spanner: mask size and grammar are checked, a finished session allows nothing") {
  const Vocabulary vocabulary = tiny_vocabulary({"1", "+", " "});
  const auto grammar = load_session_fixture("ambiguous_sum.lark");
  mask::SpannerEngine spanner(grammar, vocabulary);
  glr::Session session(grammar, &vocabulary);
  std::vector<std::uint32_t> wrong(7);
  CHECK_THROWS_WITH(spanner.fill_mask(session, wrong), Catch::Contains("words"));
  glr::Session other(load_session_fixture("ambiguous_sum.lark"), &vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  CHECK_THROWS_WITH(spanner.fill_mask(other, mask.words()), Catch::Contains("another grammar"));
  session.commit(0);
  mask = engine_mask(spanner, session, vocabulary);
  CHECK(mask.to_vector() == std::vector<TokenId>{0, 1, 2, 3});  // "1", "+", " ", EOS
  session.commit(3);                                            // EOS
  CHECK(engine_mask(spanner, session, vocabulary).count() == 0);
}
