// Mask engines on a grammar with Python's indenter post-lexer: the oracle serves it (masks on
// teacher-forced steps of a real Python program with Llama-3), the spanner and wfa refuse it.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_test_support.h"
#include "wfa/compiled_mask.h"
#include "wfa/oracle_engine.h"
#include "wfa/parser_dwa_builder.h"
#include "wfa/spanner_engine.h"

using namespace glrmask;

namespace {

glr::ParseOptions python_options() {
  glr::ParseOptions options;
  options.postlex = glr::PostLexer::kPythonIndenter;
  return options;
}

std::shared_ptr<const glr::CompiledGrammar> blocks() {
  return glr::CompiledGrammar::load_lark(testing::fixtures_dir() / "indenter" / "blocks.lark",
                                         python_options());
}

std::optional<TokenId> token_with_bytes(const Vocabulary& vocabulary, std::string_view bytes) {
  for (TokenId id = 0; id < vocabulary.size(); ++id)
    if (vocabulary.contains(id) && !vocabulary.is_special(id) && vocabulary.bytes(id) == bytes)
      return id;
  return std::nullopt;
}

TEST_CASE("the spanner and wfa engines refuse a grammar with a post-lexer") {
  const Vocabulary vocabulary = Vocabulary::load(testing::fixtures_dir() / "tokenizers" /
                                                 "tiny_byte_level" / "tokenizer.json");
  const auto grammar = blocks();
  const std::string why =
      "cannot serve a grammar with a post-lexer (--postlex python): its construction reads the "
      "terminal sequences of tokens without the indentation text";
  CHECK_THROWS_WITH(wfa::SpannerEngine(grammar, vocabulary),
                    Catch::Contains("the spanner engine " + why));
  CHECK_THROWS_WITH(wfa::CompiledMask::compile(grammar, vocabulary),
                    Catch::Contains("the wfa engine " + why));
  // The oracle serves it. After "a:\n" the block needs an _INDENT: the newline must go on
  // (blanks, newlines, a comment) before any other byte.
  wfa::OracleEngine oracle(vocabulary);
  glr::Session session(grammar, &vocabulary);
  session.commit_bytes("a:\n");
  const DenseMask mask = testing::engine_mask(oracle, session, vocabulary);
  for (TokenId id = 0; id < vocabulary.size(); ++id) {
    if (!vocabulary.contains(id) || vocabulary.is_special(id)) continue;
    const std::string_view bytes = vocabulary.bytes(id);
    INFO("token " << id << " \"" << bytes << "\"");
    const char first = bytes.front();
    const bool expected = first == '\n' || first == ' ' || first == '\t' || first == '#' ||
                          (first == '\r' && bytes.size() >= 2 && bytes[1] == '\n') || bytes == "\r";
    // Tokens beginning with a newline or a blank may still fail later in their bytes.
    if (!expected) CHECK_FALSE(mask.test(id));
  }
  if (const auto newline = token_with_bytes(vocabulary, "\n")) CHECK(mask.test(*newline));
}

TEST_CASE("oracle masks on a real Python program (Llama-3, teacher-forced)") {
  if (!testing::require_data_dir("wfa_indenter_engines_test (Python program)"))
    return glrmask::testing::skip_test_case();
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const auto grammar = glr::CompiledGrammar::load_lark(
      data_dir() / "grammars" / "syncode" / "python_grammar.lark", python_options());
  const std::string text =
      testing::read_file(data_dir() / "programs" / "python" / "backtracking__word_break.py");
  const std::vector<TokenId> ids = encoder.encode(text);
  const std::optional<TokenId> one_space_x = token_with_bytes(vocabulary, " x");
  REQUIRE(one_space_x);
  wfa::OracleEngine oracle(vocabulary);
  glr::Session session(grammar, &vocabulary);
  std::size_t checked = 0;
  std::size_t dedent_checks = 0;
  std::string so_far;
  for (std::size_t step = 0; step < ids.size() && checked < 8; ++step) {
    // Steps right after a token that ends a line inside a block, and a few plain ones.
    const bool after_line = !so_far.empty() && so_far.back() == '\n';
    // A single branch, inside a block, outside brackets (where newlines are dropped).
    const auto& branches = session.position().branches;
    const bool in_block = branches.size() == 1 && !branches.front().indenter.levels.empty() &&
                          branches.front().indenter.bracket_depth == 0;
    if ((after_line && in_block) || step == 5 || step == 40) {
      INFO("step " << step << " after \""
                   << so_far.substr(so_far.size() > 60 ? so_far.size() - 60 : 0) << "\"");
      const DenseMask mask = testing::engine_mask(oracle, session, vocabulary);
      CHECK(mask.test(ids[step]));
      if (after_line && in_block) {
        // " x" ends the newline at width 1; every level of these programs is a multiple of 4,
        // so it dedents to a width not on the stack.
        for (const std::uint32_t level : branches.front().indenter.levels) REQUIRE(level % 4 == 0);
        CHECK_FALSE(mask.test(*one_space_x));
        CHECK_FALSE(session.accepts_bytes(" x"));
        ++dedent_checks;
      }
      ++checked;
    }
    session.commit(ids[step]);
    so_far += vocabulary.bytes(ids[step]);
  }
  CHECK(checked == 8);
  CHECK(dedent_checks >= 4);
}

TEST_CASE("oracle allows EOS exactly when the Python program is complete") {
  if (!testing::require_data_dir("wfa_indenter_engines_test (EOS)"))
    return glrmask::testing::skip_test_case();
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const auto grammar = glr::CompiledGrammar::load_lark(
      data_dir() / "grammars" / "syncode" / "python_grammar.lark", python_options());
  const std::string text =
      testing::read_file(data_dir() / "programs" / "python" / "backtracking__word_break.py");
  glr::Session session(grammar, &vocabulary);
  for (const TokenId id : encoder.encode(text)) session.commit(id);
  wfa::OracleEngine oracle(vocabulary);
  const DenseMask mask = testing::engine_mask(oracle, session, vocabulary);
  CHECK(mask.test(*vocabulary.eos()));
  // More statements may follow, at width 0 only: the file's last block is closed by EOF alone.
  const std::optional<TokenId> x = token_with_bytes(vocabulary, "x");
  REQUIRE(x);
  CHECK(mask.test(*x));
  const std::optional<TokenId> one_space_x = token_with_bytes(vocabulary, " x");
  REQUIRE(one_space_x);
  CHECK_FALSE(mask.test(*one_space_x));
}

}  // namespace
