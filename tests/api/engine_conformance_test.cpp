// One conformance table that every engine of the registry runs (api/src/engine_registry.h): each
// case is a grammar with the features that make some engine refuse it (a post-lexer, a skippable
// terminal on forking stacks, reductions that never end), and each engine must refuse exactly the
// cases its registry entry declares (with ErrorCode::kUnsupported, at compile time) and equal the
// oracle at every viable prefix of the others. A new engine is tested here by its entry alone.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api/src/engine_registry.h"
#include "glrmask/glrmask.hpp"
#include "mask/parser_dwa/parser_dwa_builder.h"
#include "tests/support/facade_test_support.h"

namespace glrmask {
namespace {

using testing::fixtures_dir;

struct ConformanceCase {
  const char* folder;  // of tests/fixtures
  const char* fixture;
  const char* alphabet;
  std::size_t max_prefix;
  GrammarOptions options;
  std::uint8_t features;  // the EngineRefusal bits the grammar has
};

GrammarOptions lark_policy(std::vector<std::string> skippable = {}) {
  GrammarOptions options;
  options.policy = ConflictPolicy::kLark;
  options.skippable = std::move(skippable);
  return options;
}

GrammarOptions skippable_keep_all(std::vector<std::string> skippable) {
  GrammarOptions options;
  options.skippable = std::move(skippable);
  return options;
}

GrammarOptions python_indenter() {
  GrammarOptions options;
  options.postlex = PostLexer::kPython;
  return options;
}

std::vector<ConformanceCase> cases() {
  return {
      {"glr_session", "ambiguous_sum.lark", "12+ ", 4, {}, 0},
      {"glr_session", "keyword_ties.lark", "ifa= ", 3, {}, 0},
      {"glr_session", "epsilon_rules.lark", "xyz ", 4, {}, 0},
      {"glr_session", "cyclic.lark", "a ", 6, {}, 0},  // normalized: every engine serves it
      {"glr_session", "skippable_eos.lark", "a{}\n; ", 3, lark_policy({"EOS"}), 0},
      {"glr_session", "skippable_on_forks.lark", "a+; ", 5, skippable_keep_all({"EOS"}),
       kRefusesSkippableOnForks},
      {"glr_session", "cyclic.lark", "a ", 6, lark_policy(), kRefusesEndlessReductions},
      {"indenter", "blocks.lark", "a:\n ", 6, python_indenter(), kRefusesPostLexer},
  };
}

}  // namespace

TEST_CASE(
    "engine conformance: each engine refuses what its entry declares and equals the oracle "
    "on the rest") {
  for (const ConformanceCase& c : cases()) {
    const testing::FixtureVocab vocab = testing::fixture_vocab(c.alphabet);
    const Tokenizer tokenizer = testing::fixture_tokenizer(vocab);
    const Grammar grammar =
        Grammar::from_lark_file(fixtures_dir() / c.folder / c.fixture, c.options);
    std::size_t served = 0;
    for (const EngineEntry& entry : engine_registry()) {
      INFO(c.fixture << " (" << grammar.description() << "), engine " << engine_name(entry.engine));
      const bool refuses = (entry.refuses & c.features) != 0;
      std::optional<Constraint> constraint;
      try {
        constraint = Constraint::compile(grammar, tokenizer, {.engine = entry.engine});
      } catch (const Error& error) {
        INFO(error.what());
        CHECK(error.code() == ErrorCode::kUnsupported);
        CHECK(refuses);
        continue;
      }
      CHECK_FALSE(refuses);
      CHECK(constraint->engine() == entry.engine);
      CHECK(testing::compare_with_oracle(*constraint, vocab, c.alphabet, c.max_prefix) > 0);
      ++served;
    }
    CHECK(served > 0);  // the oracle serves everything
  }
}

TEST_CASE(
    "engine conformance: kAuto takes the registry's order and moves past a refusal by its "
    "code") {
  const testing::FixtureVocab vocab = testing::fixture_vocab("a ");
  const Tokenizer tokenizer = testing::fixture_tokenizer(vocab);
  // Reductions that never end (cyclic.lark under the Lark policy is not normalized): the wfa's
  // construction refuses with the typed error, kAuto serves with the next engine of its order.
  const Grammar cyclic =
      Grammar::from_lark_file(fixtures_dir() / "glr_session" / "cyclic.lark", lark_policy());
  try {
    (void)Constraint::compile(cyclic, tokenizer, {.engine = Engine::kWfa});
    FAIL("the wfa compiled reductions that never end");
  } catch (const mask::EndlessReductionsError& error) {
    CHECK(error.code() == ErrorCode::kUnsupported);
  }
  const Constraint automatic = Constraint::compile(cyclic, tokenizer);
  CHECK(automatic.engine() == auto_engine_order()[1]);
  CHECK(testing::compare_with_oracle(automatic, vocab, "a ", 6) > 0);
  // A grammar every engine serves gets the first of the order.
  CHECK(Constraint::from_lark("start: \"a\"+\n", tokenizer).engine() == auto_engine_order()[0]);
  // The order holds only engines of the registry, each once, kAuto not among them.
  std::vector<Engine> seen;
  for (const Engine engine : auto_engine_order()) {
    CHECK(engine != Engine::kAuto);
    CHECK(std::find(seen.begin(), seen.end(), engine) == seen.end());
    CHECK(engine_entry(engine).auto_order > 0);
    seen.push_back(engine);
  }
}

TEST_CASE("engine conformance: every engine of engines.def has its name, summary and entry") {
  CHECK(all_engines().front() == Engine::kAuto);
  for (const Engine engine : all_engines()) {
    INFO(engine_name(engine));
    CHECK(engine_from_name(engine_name(engine)) == engine);
    CHECK(std::string(engine_summary(engine)).size() > 10);
    if (engine != Engine::kAuto) CHECK(engine_entry(engine).engine == engine);
  }
  CHECK(engine_registry().size() + 1 == all_engines().size());
  CHECK_FALSE(engine_from_name("wfa2").has_value());
}

}  // namespace glrmask
