// PSC's sample pass-rate accounting (wfa/sample_pass.h) on the project's fixtures: a JSON Schema
// of integers in [100, 99999] whose invalid instances 10 and 5 are rejected only at EOS (each is a
// prefix of a valid number), the tiny byte-level tokenizer, and two real engines (wfa, oracle).
// The expected verdicts follow from the schema's semantics, stated in the fixture.
#include "wfa/sample_pass.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"
#include "wfa/oracle_engine.h"
#include "wfa/wfa_engine.h"

using namespace glrmask;
using wfa::EngineRun;
using wfa::PassRateTally;
using wfa::SampleKind;

namespace {

struct SamplePassFixture {
  std::filesystem::path tokenizer =
      testing::fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json";
  Vocabulary vocabulary = Vocabulary::load(tokenizer);
  Encoder encoder = Encoder::load(tokenizer);
  json_schema::JsonValue document;
  std::shared_ptr<const glr::CompiledGrammar> grammar;

  SamplePassFixture() {
    const auto path = testing::fixtures_dir() / "wfa" / "pass_rate_schema.json";
    document = json_schema::parse_json(testing::read_file(path), path.string());
    grammar = glr::CompiledGrammar::compile(
        json_schema::compile_json_schema(*document.find("schema"), "pass_rate_schema"));
  }

  std::vector<TokenId> tokens(const json_schema::JsonValue& instance) const {
    return encoder.encode(json_schema::to_json_text(instance));
  }
  const std::vector<json_schema::JsonValue>& instances(const char* list) const {
    return document.find(list)->items;
  }
};

// Teacher forcing written out here, independently of the studies' loop: mask, then the real
// token (EOS after the last) must be in it, then commit.
EngineRun run_engine(wfa::MaskEngine& engine, const SamplePassFixture& fixture,
                     const std::vector<TokenId>& tokens) {
  glr::Session session(fixture.grammar, &fixture.vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(fixture.vocabulary.size()));
  for (std::size_t step = 0; step <= tokens.size(); ++step) {
    const TokenId token = step < tokens.size() ? tokens[step] : *fixture.vocabulary.eos();
    engine.fill_mask(session, mask.words());
    if (!mask.test(token)) return {EngineRun::End::kMasked, step};
    try {
      session.commit(token);
    } catch (const Error&) {
      return {EngineRun::End::kUnsound, step};
    }
  }
  return {EngineRun::End::kAllowedAll, tokens.size() + 1};
}

}  // namespace

TEST_CASE("grammar verdict: an invalid prefix of a valid instance is rejected at the EOS step") {
  const SamplePassFixture fixture;
  for (const auto& instance : fixture.instances("valid"))
    CHECK_FALSE(
        wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, fixture.tokens(instance)));
  const auto& invalid = fixture.instances("invalid");
  for (std::size_t i : {0u, 1u}) {  // 10 and 5
    const std::vector<TokenId> tokens = fixture.tokens(invalid[i]);
    const auto verdict = wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, tokens);
    REQUIRE(verdict);
    CHECK(*verdict == tokens.size());
  }
  for (std::size_t i : {2u, 3u}) {  // 100000 and "abc": refused at a token, before EOS
    const std::vector<TokenId> tokens = fixture.tokens(invalid[i]);
    const auto verdict = wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, tokens);
    REQUIRE(verdict);
    CHECK(*verdict < tokens.size());
  }
  CHECK(*wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, fixture.tokens(invalid[3])) ==
        0);
}

TEST_CASE("exact engines pass every sample, the EOS-only rejections included") {
  const SamplePassFixture fixture;
  wfa::WfaEngine wfa_engine(fixture.grammar, fixture.vocabulary);
  wfa::OracleEngine oracle(fixture.vocabulary);
  for (wfa::MaskEngine* engine :
       {static_cast<wfa::MaskEngine*>(&wfa_engine), static_cast<wfa::MaskEngine*>(&oracle)}) {
    INFO("engine " << engine->name());
    PassRateTally tally;
    for (const auto& [list, kind] :
         {std::pair{"valid", SampleKind::kPositive}, std::pair{"invalid", SampleKind::kNegative}}) {
      for (const auto& instance : fixture.instances(list)) {
        const std::vector<TokenId> tokens = fixture.tokens(instance);
        const EngineRun run = run_engine(*engine, fixture, tokens);
        tally.add(kind, run, wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, tokens));
        if (kind == SampleKind::kNegative && instance.is_number() &&
            to_json_text(instance).size() <= 2) {
          // 10 and 5: every token was allowed, the engine masked EOS.
          CHECK(run.end == EngineRun::End::kMasked);
          CHECK(run.step == tokens.size());
        }
      }
    }
    CHECK(tally.positives == 2);
    CHECK(tally.negatives == 4);
    CHECK(tally.positives_passed == 2);
    CHECK(tally.negatives_passed == 4);
    CHECK(tally.passed() == 6);
    CHECK(tally.pass_rate() == 1.0);
    CHECK(tally.engine_disagreements == 0);
    CHECK(tally.grammar_rejects_positive == 0);
    CHECK(tally.grammar_accepts_negative == 0);
    CHECK(tally.engine_refused == 0);
  }
}

TEST_CASE("grammar failures are told apart from engine failures") {
  const SamplePassFixture fixture;
  wfa::WfaEngine engine(fixture.grammar, fixture.vocabulary);
  PassRateTally tally;
  // Mislabelled on purpose: an invalid instance as positive, a valid one as negative. The exact
  // engine agrees with the grammar, so both fail as grammar failures, not engine failures.
  const std::vector<TokenId> ten = fixture.tokens(fixture.instances("invalid")[0]);
  const std::vector<TokenId> hundred = fixture.tokens(fixture.instances("valid")[0]);
  tally.add(SampleKind::kPositive, run_engine(engine, fixture, ten),
            wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, ten));
  tally.add(SampleKind::kNegative, run_engine(engine, fixture, hundred),
            wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, hundred));
  CHECK(tally.passed() == 0);
  CHECK(tally.grammar_rejects_positive == 1);
  CHECK(tally.grammar_accepts_negative == 1);
  CHECK(tally.engine_disagreements == 0);

  // An engine that masked a viable token of the positive sample (step 0 instead of EOS), and one
  // whose mask let through a token the session refused: engine failures.
  PassRateTally broken;
  broken.add(SampleKind::kNegative, {EngineRun::End::kMasked, 0},
             wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, ten));
  broken.add(SampleKind::kNegative, {EngineRun::End::kUnsound, ten.size()},
             wfa::grammar_verdict(fixture.grammar, fixture.vocabulary, ten));
  broken.add(SampleKind::kPositive, {EngineRun::End::kMasked, 0}, std::nullopt);
  CHECK(broken.engine_disagreements == 3);
  // PSC's rule only asks whether the negative was rejected somewhere: the first one passes.
  CHECK(broken.negatives_passed == 1);
  CHECK(broken.positives_passed == 0);
}

TEST_CASE("a refused grammar is an X: counted, never passed") {
  PassRateTally tally;
  tally.add(SampleKind::kPositive, {EngineRun::End::kRefusedGrammar, 0}, std::nullopt);
  tally.add(SampleKind::kNegative, {EngineRun::End::kRefusedGrammar, 0}, std::size_t{3});
  CHECK(tally.engine_refused == 2);
  CHECK(tally.passed() == 0);
  CHECK(tally.all_refused());
  CHECK(tally.engine_disagreements == 0);
  tally.add(SampleKind::kPositive, {EngineRun::End::kAllowedAll, 5}, std::nullopt);
  CHECK_FALSE(tally.all_refused());
  CHECK(tally.pass_rate() == Approx(1.0 / 3.0));

  // A schema the front-end refused fails for every engine, counted apart from X.
  PassRateTally schemas;
  schemas.add_without_grammar(SampleKind::kNegative);
  schemas.merge(tally);
  CHECK(schemas.samples() == 4);
  CHECK(schemas.negatives == 2);
  CHECK(schemas.grammar_missing == 1);
  CHECK(schemas.engine_refused == 2);
  CHECK(schemas.passed() == 1);
  CHECK_FALSE(schemas.all_refused());
  CHECK(PassRateTally{}.pass_rate() == 0);
}
