// PSC's sample pass-rate accounting (experiments/support/sample_pass.h) on the project's
// fixtures: a JSON Schema of integers in [100, 99999] whose invalid instances 10 and 5 are
// rejected only at EOS (each is a prefix of a valid number), the tiny byte-level tokenizer, and two
// real engines (wfa, oracle) driven by the library's teacher-forcing loop. The expected verdicts
// follow from the schema's semantics, stated in the fixture.
#include "experiments/support/sample_pass.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "glrmask/glrmask.hpp"
#include "harness/teacher_forcing.h"
#include "lib/json_schema/value.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using experiments::EngineRun;
using experiments::grammar_verdict;
using experiments::PassRateTally;
using experiments::SampleKind;

namespace {

struct SamplePassFixture {
  Tokenizer tokenizer = Tokenizer::load(
      (testing::fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json").string());
  json_schema::JsonValue document;
  std::string schema;

  SamplePassFixture() {
    const auto path = testing::fixtures_dir() / "wfa" / "pass_rate_schema.json";
    document = json_schema::parse_json(testing::read_file(path), path.string());
    schema = json_schema::to_json_text(*document.find("schema"));
  }

  Constraint constraint(Engine engine) const {
    return Constraint::from_json_schema(schema, tokenizer, {}, {.engine = engine},
                                        "pass_rate_schema");
  }
  std::vector<std::int32_t> tokens(const json_schema::JsonValue& instance) const {
    return tokenizer.encode(json_schema::to_json_text(instance));
  }
  const std::vector<json_schema::JsonValue>& instances(const char* list) const {
    return document.find(list)->items;
  }
};

// PSC's verdict of an engine on a sample, from the library's teacher-forcing loop: the mask of
// some step lacks the real token (EOS after the last), or lets through one the matcher refuses.
EngineRun run_engine(const Constraint& constraint, const std::vector<std::int32_t>& tokens) {
  Matcher matcher(constraint);
  const ForcedRun run = teacher_force(matcher, tokens);
  if (!run.failure) return {EngineRun::End::kAllowedAll, tokens.size() + 1};
  return {run.failure->masked ? EngineRun::End::kMasked : EngineRun::End::kUnsound,
          run.failure->step};
}

}  // namespace

TEST_CASE("grammar verdict: an invalid prefix of a valid instance is rejected at the EOS step") {
  const SamplePassFixture fixture;
  const Constraint verdicts = fixture.constraint(Engine::kOracle);
  for (const auto& instance : fixture.instances("valid"))
    CHECK_FALSE(grammar_verdict(verdicts, fixture.tokens(instance)));
  const auto& invalid = fixture.instances("invalid");
  for (std::size_t i : {0u, 1u}) {  // 10 and 5
    const std::vector<std::int32_t> tokens = fixture.tokens(invalid[i]);
    const auto verdict = grammar_verdict(verdicts, tokens);
    REQUIRE(verdict);
    CHECK(*verdict == tokens.size());
  }
  for (std::size_t i : {2u, 3u}) {  // 100000 and "abc": refused at a token, before EOS
    const std::vector<std::int32_t> tokens = fixture.tokens(invalid[i]);
    const auto verdict = grammar_verdict(verdicts, tokens);
    REQUIRE(verdict);
    CHECK(*verdict < tokens.size());
  }
  CHECK(*grammar_verdict(verdicts, fixture.tokens(invalid[3])) == 0);
}

TEST_CASE("exact engines pass every sample, the EOS-only rejections included") {
  const SamplePassFixture fixture;
  const Constraint verdicts = fixture.constraint(Engine::kOracle);
  for (const Engine engine : {Engine::kWfa, Engine::kOracle}) {
    INFO("engine " << engine_name(engine));
    const Constraint constraint = fixture.constraint(engine);
    REQUIRE(constraint.engine() == engine);
    PassRateTally tally;
    for (const auto& [list, kind] :
         {std::pair{"valid", SampleKind::kPositive}, std::pair{"invalid", SampleKind::kNegative}}) {
      for (const auto& instance : fixture.instances(list)) {
        const std::vector<std::int32_t> tokens = fixture.tokens(instance);
        const EngineRun run = run_engine(constraint, tokens);
        tally.add(kind, run, grammar_verdict(verdicts, tokens));
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
  const Constraint verdicts = fixture.constraint(Engine::kOracle);
  const Constraint engine = fixture.constraint(Engine::kWfa);
  PassRateTally tally;
  // Mislabelled on purpose: an invalid instance as positive, a valid one as negative. The exact
  // engine agrees with the grammar, so both fail as grammar failures, not engine failures.
  const std::vector<std::int32_t> ten = fixture.tokens(fixture.instances("invalid")[0]);
  const std::vector<std::int32_t> hundred = fixture.tokens(fixture.instances("valid")[0]);
  tally.add(SampleKind::kPositive, run_engine(engine, ten), grammar_verdict(verdicts, ten));
  tally.add(SampleKind::kNegative, run_engine(engine, hundred), grammar_verdict(verdicts, hundred));
  CHECK(tally.passed() == 0);
  CHECK(tally.grammar_rejects_positive == 1);
  CHECK(tally.grammar_accepts_negative == 1);
  CHECK(tally.engine_disagreements == 0);

  // An engine that masked a viable token of the positive sample (step 0 instead of EOS), and one
  // whose mask let through a token the session refused: engine failures.
  PassRateTally broken;
  broken.add(SampleKind::kNegative, {EngineRun::End::kMasked, 0}, grammar_verdict(verdicts, ten));
  broken.add(SampleKind::kNegative, {EngineRun::End::kUnsound, ten.size()},
             grammar_verdict(verdicts, ten));
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
