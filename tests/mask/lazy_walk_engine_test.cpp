// The lazy engine (mask/lazy/lazy_walk_engine.h) against the oracle, bit for bit: after every
// viable short prefix of the small session grammars with a hand-made vocabulary, and of JSON Schema
// grammars (counted strings, patterns, keys) whose forks take the plain-token shortcut; the
// shortcut itself against a walk of the whole vocabulary.
#include "mask/lazy/lazy_walk_engine.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lexer/terminal_dwa/lazy_terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "mask/lazy/staged_engine.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"

namespace glrmask {
namespace {

using glrmask::testing::engine_mask;

// The engine with the vocabulary-level data it borrows.
class OwningLazyEngine final : public mask::MaskEngine {
 public:
  OwningLazyEngine(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                   const Vocabulary& vocabulary, bool shortcut)
      : trie_(lexer::VocabularyTrie::build(vocabulary)),
        plain_(trie_),
        engine_(grammar, vocabulary, trie_, shortcut ? &plain_ : nullptr) {}
  std::string_view name() const override { return "lazy"; }
  void fill_mask(const glr::ParseView& session, std::span<std::uint32_t> words) override {
    engine_.fill_mask(session, words);
  }
  const mask::LazyWalkEngine& engine() const { return engine_; }

 private:
  lexer::VocabularyTrie trie_;
  lexer::PlainTokens plain_;
  mask::LazyWalkEngine engine_;
};

std::unique_ptr<mask::MaskEngine> make_lazy(const std::shared_ptr<const glr::CompiledGrammar>& g,
                                            const Vocabulary& v) {
  return std::make_unique<OwningLazyEngine>(g, v, true);
}

// mask/mask_engine.h's two preconditions, one wording for every engine.
TEST_CASE("every engine refuses a wrong word count and another grammar's session, by name") {
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary({"1", "+", " "});
  const auto grammar = glrmask::testing::load_session_fixture("ambiguous_sum.lark");
  const auto other = glrmask::testing::load_session_fixture("ambiguous_sum.lark");
  std::vector<std::pair<std::string, std::unique_ptr<mask::MaskEngine>>> engines;
  engines.emplace_back("lazy", make_lazy(grammar, vocabulary));
  engines.emplace_back("wfa", glrmask::testing::make_wfa(grammar, vocabulary));
  engines.emplace_back("spanner", std::make_unique<mask::SpannerEngine>(grammar, vocabulary));
  for (auto& [name, engine] : engines) {
    INFO(name);
    glr::Session session(grammar, &vocabulary);
    std::vector<std::uint32_t> wrong(7);
    CHECK_THROWS_WITH(engine->fill_mask(session, wrong),
                      name + " mask: 7 words given, the vocabulary (5 ids) needs 1");
    glr::Session elsewhere(other, &vocabulary);
    elsewhere.commit(0);
    std::vector<std::uint32_t> words(1);
    CHECK_THROWS_WITH(engine->fill_mask(elsewhere, words),
                      name +
                          " mask: the session at byte offset 1 uses another grammar than the "
                          "engine");
    CHECK_NOTHROW(engine->fill_mask(session, words));
  }
  // The oracle reads only the session, so any grammar's session is its own.
  mask::OracleEngine oracle(vocabulary);
  glr::Session session(grammar, &vocabulary);
  std::vector<std::uint32_t> wrong(2);
  CHECK_THROWS_WITH(oracle.fill_mask(session, wrong),
                    "oracle mask: 2 words given, the vocabulary (5 ids) needs 1");
}

TEST_CASE("lazy engine = oracle on small grammars with a hand-made vocabulary") {
  using glrmask::testing::compare_on_prefixes;
  CHECK(compare_on_prefixes(make_lazy, "../spanner_table/nested_list.lark", "[]1, ", 6) > 0);
  CHECK(compare_on_prefixes(make_lazy, "ambiguous_sum.lark", "12+ ", 5) > 0);
  CHECK(compare_on_prefixes(make_lazy, "fallback_dots.lark", "a. ", 6) > 0);
  CHECK(compare_on_prefixes(make_lazy, "keyword_ties.lark", "ifa= ", 4) > 0);
  CHECK(compare_on_prefixes(make_lazy, "ignored_tie.lark", "a# ;", 5) > 0);
  CHECK(compare_on_prefixes(make_lazy, "epsilon_rules.lark", "xyz ", 5) > 0);
  CHECK(compare_on_prefixes(make_lazy, "hidden_right_recursion.lark", "ab ", 6) > 0);
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  CHECK(compare_on_prefixes(make_lazy, "skippable_eos.lark", "a{}\n; ", 4, skippable) > 0);
}

TEST_CASE("staged engine = oracle before and after its switch to the wfa engine") {
  const auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
      R"({"type": "object", "properties": {"ab": {"type": "string", "maxLength": 3}},
          "required": ["ab"]})",
      "test.json"));
  std::vector<std::string> tokens;
  for (const std::string& s : glrmask::testing::strings_up_to("{}\"ab: ", 2))
    if (!s.empty()) tokens.push_back(s);
  tokens.push_back("\"ab\": \"");
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary(tokens);
  const mask::VocabularyTables tables(vocabulary);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::StagedEngine staged(grammar, tables);
  // Every prefix of a few instances (strings of length 0 to 3).
  std::vector<std::string> viable;
  for (const std::string text : {R"({"ab": "aab"})", R"({"ab": ""})", R"({"ab": "b"})"}) {
    for (std::size_t n = 0; n <= text.size(); ++n) {
      glr::Session session(grammar, &vocabulary);
      if (session.try_commit_bytes(text.substr(0, n))) viable.push_back(text.substr(0, n));
    }
  }
  REQUIRE(viable.size() == 14 + 11 + 12);
  auto compare = [&](const std::string& prefix) {
    INFO("prefix " << prefix << (staged.switched() ? " (wfa)" : " (lazy or switching)"));
    glr::Session session(grammar, &vocabulary);
    REQUIRE(session.try_commit_bytes(prefix));
    glrmask::testing::require_equal_masks(engine_mask(staged, session, vocabulary),
                                          engine_mask(oracle, session, vocabulary), vocabulary);
  };
  for (const std::string& prefix : viable) compare(prefix);  // from the first mask on
  staged.wait_for_wfa();
  REQUIRE(staged.switched());
  for (const std::string& prefix : viable) compare(prefix);  // the wfa engine answers
}

TEST_CASE(
    "staged engine: a background build over its budget keeps the lazy engine answering and "
    "rethrows the typed error") {
  const auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
      R"({"type": "object", "properties": {"ab": {"type": "string"}}, "required": ["ab"]})",
      "test.json"));
  std::vector<std::string> tokens;
  for (const std::string& s : glrmask::testing::strings_up_to("{}\"ab: ", 2))
    if (!s.empty()) tokens.push_back(s);
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary(tokens);
  const mask::VocabularyTables tables(vocabulary);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::StagedOptions options;
  options.build_after_first_mask = false;
  options.parser_dwa.max_states = 1;
  mask::StagedEngine staged(grammar, tables, options);
  try {
    staged.wait_for_wfa();
    FAIL("the Parser DWA fit in one state");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kLimit);
    CHECK_THAT(e.what(), Catch::Contains("max_parser_dwa_states"));
  }
  CHECK_FALSE(staged.switched());
  for (const std::string prefix : {"", "{", R"({"ab": ")", R"({"ab": "a)"}) {
    INFO("prefix " << prefix);
    glr::Session session(grammar, &vocabulary);
    REQUIRE(session.try_commit_bytes(prefix));
    glrmask::testing::require_equal_masks(engine_mask(staged, session, vocabulary),
                                          engine_mask(oracle, session, vocabulary), vocabulary);
  }
}

// Every viable prefix over `alphabet` up to `max_prefix` bytes, for a schema grammar and a
// vocabulary of strings over `alphabet`: the lazy engine with and without the shortcut, and the
// oracle.
std::size_t compare_schema(const std::string& schema, const std::string& alphabet,
                           const std::vector<std::string>& extra_tokens, std::size_t max_prefix) {
  INFO(schema);
  const auto grammar =
      glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(schema, "test.json"));
  std::vector<std::string> tokens;
  for (const std::string& s : glrmask::testing::strings_up_to(alphabet, 2))
    if (!s.empty()) tokens.push_back(s);
  tokens.insert(tokens.end(), extra_tokens.begin(), extra_tokens.end());
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary(tokens);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  OwningLazyEngine shortcut(grammar, vocabulary, true);
  OwningLazyEngine walked(grammar, vocabulary, false);
  std::size_t compared = 0;
  for (const std::string& prefix : glrmask::testing::strings_up_to(alphabet, max_prefix)) {
    glr::Session session(grammar, &vocabulary);
    if (!session.try_commit_bytes(prefix)) continue;
    INFO("prefix " << prefix);
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    glrmask::testing::require_equal_masks(engine_mask(shortcut, session, vocabulary), expected,
                                          vocabulary);
    glrmask::testing::require_equal_masks(engine_mask(walked, session, vocabulary), expected,
                                          vocabulary);
    ++compared;
  }
  CHECK(shortcut.engine().dwa().stats().plain_forks > 0);
  CHECK(walked.engine().dwa().stats().plain_forks == 0);
  return compared;
}

TEST_CASE("lazy engine = oracle on schema grammars, with and without the plain-token shortcut") {
  // A counted string: forks 13 per position, each through the shortcut.
  CHECK(compare_schema(R"({"type": "string", "minLength": 2, "maxLength": 4})", "\"a\\u0é",
                       {"\xc3", "\xa9", "ab\"", "\"ab", "aaaa", "a\xc3"}, 5) > 20);
  // Keys, a pattern and a counted string beside each other; the start of a key is no shortcut.
  CHECK(compare_schema(R"({"type": "object", "properties": {"ab": {"type": "string",
                           "maxLength": 2}, "b": {"pattern": "^a+$"}}, "required": ["b"]})",
                       "{}\"ab:, ", {"\"ab\": \"", "\": \"", "aa\"", "\"}"}, 5) > 5);
}

TEST_CASE("lazy and staged engines refuse a grammar with a post-lexer as unsupported") {
  // The lazy walk reads no indentation (no LexemeScan) and the session's indenter state is not
  // part of its fork key: it would serve wrong masks, so it says kUnsupported instead.
  glr::ParseOptions python;
  python.postlex = glr::PostLexer::kPythonIndenter;
  const auto grammar = glr::CompiledGrammar::load_lark(
      glrmask::testing::fixtures_dir() / "indenter" / "blocks.lark", python);
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary({"a", ":", "\n", "  "});
  const mask::VocabularyTables tables(vocabulary);
  auto refused = [](const auto& construct) {
    try {
      construct();
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::kUnsupported);
      CHECK_THAT(e.what(), Catch::Matchers::Contains("post-lexer"));
      return true;
    }
    return false;
  };
  CHECK(refused([&] { OwningLazyEngine lazy(grammar, vocabulary, true); }));
  CHECK(refused([&] { mask::StagedEngine staged(grammar, tables); }));
}

}  // namespace
}  // namespace glrmask
