// Mask engines on a grammar with Python's indenter post-lexer (docs/indenter.md): the wfa and the
// spanner equal the oracle at every prefix of fixtures that exercise the indenter (dedents by
// several levels, tokens ending inside the indentation, tabs, brackets, comments, docstrings,
// refused dedents, final dedents); the oracle's masks on a real Python program with Llama-3; the
// artifact's record of the post-lexer. Corpus runs are the exactness study's
// (experiments/results/exactness/).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/fork_ignored_ending.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/parser_dwa/parser_dwa_builder.h"
#include "mask/spanner/spanner_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/fork_ignored_ending_reference.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

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

// The counters of the engine's last step.
double counter(const mask::MaskEngine& engine, std::string_view name) {
  for (const mask::EngineCounter& c : engine.last_step_counters())
    if (c.name == name) return c.value;
  return 0;
}

struct PrefixCounts {
  double branches = 0;  // ways on of the wfa's walk that depend on the indenter's state
  double deferred = 0;  // tokens the wfa left to the session
};

// Every prefix of every text the session accepts (the texts are committed byte by byte): the
// wfa's mask, its view and the spanner's equal the oracle's, EOS included.
PrefixCounts compare_at_every_prefix(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                                     const Vocabulary& vocabulary,
                                     const std::vector<std::string>& texts) {
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine wfa(grammar, vocabulary);
  mask::SpannerEngine spanner(grammar, vocabulary);
  double branches = 0;
  double deferred = 0;
  for (const std::string& text : texts) {
    glr::Session session(grammar, &vocabulary);
    for (std::size_t length = 0; length <= text.size(); ++length) {
      if (length > 0 && !session.try_commit_bytes(text.substr(length - 1, 1))) break;
      INFO("prefix \"" << text.substr(0, length) << "\"");
      const DenseMask expected = testing::engine_mask(oracle, session, vocabulary);
      testing::require_equal_masks(testing::engine_mask_view(wfa, session, vocabulary), expected,
                                   vocabulary);
      testing::require_equal_masks(testing::engine_mask(wfa, session, vocabulary), expected,
                                   vocabulary);
      branches += counter(wfa, "indenter_branches");
      deferred += counter(wfa, "deferred_tokens");
      testing::require_equal_masks(testing::engine_mask(spanner, session, vocabulary), expected,
                                   vocabulary);
    }
  }
  return {branches, deferred};
}

// The 1- and 2-byte strings of `alphabet`, runs of three, and `more`.
Vocabulary indentation_vocabulary(const std::string& alphabet,
                                  const std::vector<std::string>& more) {
  std::vector<std::string> tokens;
  for (const std::string& s : testing::strings_up_to(alphabet, 2))
    if (!s.empty()) tokens.push_back(s);
  for (const char c : alphabet) tokens.push_back(std::string(3, c));
  for (const std::string& token : more)
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) tokens.push_back(token);
  return testing::tiny_vocabulary(tokens);
}

TEST_CASE("wfa and spanner = oracle at every prefix of indentation fixtures") {
  const Vocabulary vocabulary = indentation_vocabulary(
      "ab:\n \t(),#",
      {"\n    ", "\n  ", "  a", "    a", "\n\ta", "\t\ta", "):\n", "\n\n", "a\n", "a:\n", "#a\n",
       "\na", "\n a", "\n  a", "\n\n  ", " \n  ", "\n\t  ", ")\n", ",\n  "});
  const PrefixCounts counts = compare_at_every_prefix(
      blocks(), vocabulary,
      {
          "a:\n b:\n  b:\n   a\nb\n",           // one newline dedents three levels
          "a:\n  b\n  a:\n    b\n  a\n",        // a token ending inside the indentation
          "a:\n\tb\n    a\n\t  b\n",            // a tab is four spaces
          "(a,\n  b\n)\na:\n  (b,\nb)\n  a\n",  // newlines inside brackets
          "a:\n  b\n# a\n      # b\n  a\n",     // comment lines at other indentations
          "a:\n    b\n  a\n",                   // a dedent to a width not on the stack
          "a:\n b:\n  a\n",                     // EOS needs the final dedents
      });
  CHECK(counts.branches > 0);
  CHECK(counts.deferred == 0);
}

TEST_CASE("wfa and spanner = oracle where a docstring is a newline and strings are guarded") {
  const Vocabulary vocabulary = indentation_vocabulary(
      "a:\n \"", {"\"\"\"", "\"\"\"a\"\"\"", "\n  \"\"\"", "\"\"\"\n", "a\"", "\"a\"", "\n    "});
  compare_at_every_prefix(
      glr::CompiledGrammar::load_lark(testing::fixtures_dir() / "indenter" / "docstrings.lark",
                                      python_options()),
      vocabulary,
      {
          "a:\n  \"\"\"a\"\"\"\n  a\n",    // a docstring on its own line: part of the newline
          "\"a\"\n\"\"\na\n",              // strings, the empty one before a newline
          "a:\n  \"\"\"a\n  \"\"\"\na\n",  // a docstring over two lines
          "\"\"\"a",                       // a long string never closed: no `""` fall-back
      });
}

TEST_CASE("an artifact of guarded strings under the indenter reads back its held emissions") {
  // A fork that emitted a lexeme while a guarded match (STRING's (?!"")) was still tentative
  // keeps that inhibitor marked lexer::kHeldEmission; SynCode's Python grammar has such forks,
  // and the reader once took the mark for a state out of range and refused every Python artifact.
  const Vocabulary vocabulary = indentation_vocabulary(
      "a:\n \"", {"\"\"\"", "\"\"\"a\"\"\"", "\n  \"\"\"", "\"\"\"\n", "a\"", "\"a\"", "\n    "});
  const auto grammar = glr::CompiledGrammar::load_lark(
      testing::fixtures_dir() / "indenter" / "docstrings.lark", python_options());
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  std::size_t held = 0;
  for (lexer::ForkId f = 0; f < compiled->terminal_dwa().num_forks(); ++f)
    for (const std::uint32_t inhibitor : compiled->terminal_dwa().fork(f).inhibitors)
      held += (inhibitor & lexer::kHeldEmission) != 0 ? 1 : 0;
  REQUIRE(held > 0);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "glrmask_indenter_held_emissions.artifact";
  mask::write_mask_artifact(*compiled, vocabulary, path);
  const auto loaded = mask::read_mask_artifact(path, grammar, vocabulary);
  std::filesystem::remove(path);
  CHECK(loaded->terminal_dwa().num_forks() == compiled->terminal_dwa().num_forks());
  mask::WfaEngine original(compiled, vocabulary), reloaded(loaded, vocabulary);
  std::size_t compared = 0;
  for (const std::string& prefix : testing::strings_up_to("a:\n \"", 5)) {
    glr::Session session(grammar, &vocabulary);
    if (!session.try_commit_bytes(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    testing::require_equal_masks(testing::engine_mask(reloaded, session, vocabulary),
                                 testing::engine_mask(original, session, vocabulary), vocabulary);
    ++compared;
  }
  CHECK(compared > 50);
}

TEST_CASE("a dedent to a width not on the stack is refused at its first byte after the blanks") {
  const auto grammar = blocks();
  glr::Session session(grammar);
  CHECK(session.try_commit_bytes("a:\n    b\n  "));
  CHECK_FALSE(session.accepts_bytes("a"));
  CHECK_THROWS_WITH(session.commit_bytes("a"),
                    Catch::Contains("not on the indentation stack {0, 4}"));
}

TEST_CASE("an artifact records the post-lexer, and one compiled without it is refused") {
  const Vocabulary vocabulary = Vocabulary::load(testing::fixtures_dir() / "tokenizers" /
                                                 "tiny_byte_level" / "tokenizer.json");
  const auto grammar = blocks();
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  const std::filesystem::path with =
      std::filesystem::temp_directory_path() / "glrmask_indenter_blocks.artifact";
  mask::write_mask_artifact(*compiled, vocabulary, with);
  CHECK(mask::read_mask_artifact(with, grammar, vocabulary)->parser_dwa().has_branches());
  // An artifact of a grammar without a post-lexer, given the grammar that needs one.
  const auto plain = glr::CompiledGrammar::load_lark(
      testing::fixtures_dir() / "cli" / "check_list.lark", glr::ParseOptions{});
  const std::filesystem::path without =
      std::filesystem::temp_directory_path() / "glrmask_indenter_plain.artifact";
  mask::write_mask_artifact(*mask::CompiledMask::compile(plain, vocabulary), vocabulary, without);
  CHECK_THROWS_WITH(mask::read_mask_artifact(without, grammar, vocabulary),
                    Catch::Contains("compiled without the post-lexer the grammar is loaded with "
                                    "(GrammarOptions::postlex python)"));
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
  mask::OracleEngine oracle(vocabulary);
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
  mask::OracleEngine oracle(vocabulary);
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

TEST_CASE("forks ending through ignored text: one search for all forks equals a search per fork") {
  std::vector<std::pair<std::shared_ptr<const glr::CompiledGrammar>, Vocabulary>> cases;
  cases.emplace_back(blocks(), indentation_vocabulary("a:\n ", {"\n  ", "# a\n", "a\n\n"}));
  cases.emplace_back(
      glr::CompiledGrammar::load_lark(testing::fixtures_dir() / "indenter" / "docstrings.lark",
                                      python_options()),
      indentation_vocabulary("a:\n \"#",
                             {"\"\"\"", "\"\"\"a\"\"\"", "\n  \"\"\"", "# a\n", "\n    "}));
  // SynCode's Python grammar: engine_corpus_test (Release only: no code path the fixtures miss).
  std::size_t ending = 0;
  for (const auto& [grammar, vocabulary] : cases) {
    const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
    const std::vector<char> expected =
        testing::ends_through_ignored_per_fork(compiled->terminal_dwa());
    CHECK(lexer::forks_ending_through_ignored(compiled->terminal_dwa()) == expected);
    ending += static_cast<std::size_t>(std::count(expected.begin(), expected.end(), 1));
  }
  CHECK(ending > 0);  // some fork of the cases ends through a comment
}
