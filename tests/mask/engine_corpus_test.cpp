// The wfa engine against the oracle at every teacher-forced step of real programs: SynCode's Java
// and Go grammars with Llama-3, Python with its indenter (wfa and spanner, one program and the
// three rejected ones) with Llama-3, SQL with Llama-2 (the tokenizer whose byte tokens reach the
// lexical corner cases of SQL's case-insensitive keywords). The full sweep over every corpus
// program and tokenizer is the `exactness` study (docs/experiments.md); this test keeps a
// representative slice in the default suite. Labelled `corpus`: the sanitizer pass leaves it out
// (the compile of three programming-language grammars under ASan adds minutes, not coverage).
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lexer/terminal_dwa/fork_ignored_ending.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/fork_ignored_ending_reference.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"

using namespace glrmask;

namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines of a parses.txt list (file names of the programs the grammar accepts).
std::vector<std::string> parsing_programs(const std::filesystem::path& list) {
  std::ifstream in(list);
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

struct Corpus {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  Vocabulary vocabulary;
  Encoder encoder;
};

Corpus load(const std::string& grammar, const std::string& tokenizer,
            glr::ParseOptions options = {}) {
  return {glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / grammar, options),
          Vocabulary::load(resolve_tokenizer(tokenizer)),
          Encoder::load(resolve_tokenizer(tokenizer))};
}

}  // namespace

TEST_CASE("wfa = oracle on teacher-forced Java programs (Llama-3)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (Java)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Corpus corpus = load("java_grammar.lark", "llama3");
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(corpus.grammar, corpus.vocabulary);
  const auto java = data_dir() / "programs" / "java";
  std::size_t steps = 0;
  for (const std::string& name : parsing_programs(java / "parses.txt")) {
    if (name.rfind("nocomments/", 0) != 0) continue;
    steps += glrmask::testing::compare_teacher_forced(
        corpus.grammar, engine, oracle, corpus.vocabulary, corpus.encoder, slurp(java / name), 150);
    if (steps >= 300) break;
  }
  CHECK(steps >= 300);
}

// SynCode's convention for Go: `--policy lark --skippable EOS`. A newline after a name is shifted
// as EOS at statement level and dropped inside parentheses, which the top state cannot tell: the
// Parser DWA holds such tokens in guarded items until the states below decide (docs/wfa.md).
TEST_CASE("wfa = oracle on teacher-forced Go programs (Llama-3, lark policy, skippable EOS)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (Go, skippable EOS)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  glr::ParseOptions options;
  options.policy = glr::ConflictPolicy::kLark;
  options.skippable = {"EOS"};
  const Corpus corpus = load("go_grammar.lark", "llama3", options);
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(corpus.grammar, corpus.vocabulary);
  CHECK(engine.compiled().parser_dwa().stats().guarded_states > 0);
  const auto go = data_dir() / "programs" / "go";
  CHECK(glrmask::testing::compare_teacher_forced(corpus.grammar, engine, oracle, corpus.vocabulary,
                                                 corpus.encoder,
                                                 slurp(go / "math__pi__spigotpi.go"), 200) == 201);
}

// Under the default GLR policy without skippable terminals, this is the Go program the grammar
// accepts (`glrmask check`); the session holds two stacks at some steps.
TEST_CASE("wfa = oracle on a teacher-forced Go program (Llama-3, GLR policy)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (Go)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Corpus corpus = load("go_grammar.lark", "llama3");
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(corpus.grammar, corpus.vocabulary);
  const auto go = data_dir() / "programs" / "go";
  CHECK(glrmask::testing::compare_teacher_forced(
            corpus.grammar, engine, oracle, corpus.vocabulary, corpus.encoder,
            slurp(go / "graph__breadthfirstsearch.go"), 150) == 151);
  // The same steps with every early label fed to the GLR parser instead of taken by a start
  // state of its own (ParserDwaOptions::early_label_starts): the path the engine keeps for
  // entries the automaton has no start state for.
  mask::ParserDwaOptions without;
  without.early_label_starts = false;
  mask::WfaEngine feeding(mask::CompiledMask::compile(corpus.grammar, corpus.vocabulary, without),
                          corpus.vocabulary);
  CHECK(glrmask::testing::compare_teacher_forced(
            corpus.grammar, feeding, oracle, corpus.vocabulary, corpus.encoder,
            slurp(go / "graph__breadthfirstsearch.go"), 150) == 151);
}

TEST_CASE("wfa = oracle on teacher-forced SQL queries (Llama-2)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (SQL)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  const Corpus corpus = load("sql_grammar.lark", "llama2");
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(corpus.grammar, corpus.vocabulary);
  std::ifstream queries(data_dir() / "programs" / "sql" / "queries.sql");
  std::size_t compared = 0;
  for (std::string line; std::getline(queries, line) && compared < 6; ++compared)
    glrmask::testing::compare_teacher_forced(corpus.grammar, engine, oracle, corpus.vocabulary,
                                             corpus.encoder, line);
  CHECK(compared == 6);
}

// The vocabulary-size experiments pad a vocabulary with another tokenizer's tokens while the text
// keeps its tokenization (Vocabulary::padded): the appended tokens are real, mostly multilingual
// and code pieces, and masks over them must be as exact as over the tokenizer's own.
TEST_CASE("wfa = oracle on SQL queries, Llama-2 padded with Gemma-3 tokens to 65,536 ids") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (padded SQL)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("gemma3")) return glrmask::testing::skip_test_case();
  const Corpus base = load("sql_grammar.lark", "llama2");
  const Vocabulary gemma = Vocabulary::load(resolve_tokenizer("gemma3"));
  const std::vector<const Vocabulary*> donors = {&gemma};
  const Vocabulary padded = base.vocabulary.padded(donors, 65536);
  REQUIRE(padded.size() == 65536);
  mask::OracleEngine oracle(padded);
  mask::WfaEngine engine(base.grammar, padded);
  std::ifstream queries(data_dir() / "programs" / "sql" / "queries.sql");
  std::size_t compared = 0, steps = 0;
  for (std::string line; std::getline(queries, line) && compared < 3; ++compared)
    steps += glrmask::testing::compare_teacher_forced(base.grammar, engine, oracle, padded,
                                                      base.encoder, line);
  CHECK(compared == 3);
  CHECK(steps > 30);

  // The appended tokens are live, not dead weight: after "SELECT " thousands of them can start
  // a column name, and the engines agree on each.
  glr::Session session(base.grammar, &padded);
  REQUIRE(session.try_commit_bytes("SELECT "));
  const DenseMask allowed = glrmask::testing::engine_mask(engine, session, padded);
  CHECK(allowed == glrmask::testing::engine_mask(oracle, session, padded));
  std::size_t appended_allowed = 0;
  for (auto id = static_cast<TokenId>(base.vocabulary.size()); id < padded.size(); ++id)
    appended_allowed += allowed.test(id) ? 1 : 0;
  CHECK(appended_allowed > 1000);
}

// SynCode's Python grammar with the indenter (--postlex python, docs/indenter.md): the wfa and the
// spanner against the oracle at every teacher-forced Llama-3 step of the shortest program of the
// list, whole (EOS included). The oracle costs tens of milliseconds a step here, so the slice is
// one program; the full sweep is the exactness study's.
TEST_CASE("wfa and spanner = oracle on a teacher-forced Python program (Llama-3, indenter)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (Python)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  glr::ParseOptions options;
  options.postlex = glr::PostLexer::kPythonIndenter;
  const Corpus corpus = load("python_grammar.lark", "llama3", options);
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(corpus.grammar, corpus.vocabulary);
  mask::SpannerEngine spanner(corpus.grammar, corpus.vocabulary);
  const std::string text =
      slurp(data_dir() / "programs" / "python" / "web_programming__fetch_bbc_news.py");
  const std::size_t steps = glrmask::testing::compare_teacher_forced(
      corpus.grammar, {&engine, &spanner}, oracle, corpus.vocabulary, corpus.encoder, text);
  CHECK(steps > 100);

  // The three programs the grammar rejects (digit separators, `:=`): the wfa allows every token
  // before the session's rejection and refuses the one it rejects, where its mask, the spanner's
  // and the oracle's are equal (so every engine rejects at the same step, hence the same byte).
  for (const char* name :
       {"cellular_automata__langtons_ant.py", "conversions__energy_conversions.py",
        "scripts__validate_solutions.py"}) {
    INFO("rejected program " << name);
    const std::vector<TokenId> ids =
        corpus.encoder.encode(slurp(data_dir() / "programs" / "python" / name));
    glr::Session session(corpus.grammar, &corpus.vocabulary);
    std::size_t rejected_at = ids.size();
    for (std::size_t step = 0; step < ids.size(); ++step) {
      const bool session_takes = session.accepts_bytes(corpus.vocabulary.bytes(ids[step]));
      const DenseMask wfa_mask = glrmask::testing::engine_mask(engine, session, corpus.vocabulary);
      REQUIRE(wfa_mask.test(ids[step]) == session_takes);
      if (!session_takes) {
        rejected_at = step;
        const DenseMask expected =
            glrmask::testing::engine_mask(oracle, session, corpus.vocabulary);
        glrmask::testing::require_equal_masks(wfa_mask, expected, corpus.vocabulary);
        glrmask::testing::require_equal_masks(
            glrmask::testing::engine_mask(spanner, session, corpus.vocabulary), expected,
            corpus.vocabulary);
        break;
      }
      session.commit(ids[step]);
    }
    CHECK(rejected_at < ids.size());
  }
}

// lexer::forks_ending_through_ignored on SynCode's Python grammar (a Terminal DWA of the tiny
// byte-level tokenizer) against its definition, one search per fork; the indenter fixtures are
// checked in indenter_engines_test, under the sanitizers too.
TEST_CASE("forks ending through ignored text on SynCode's Python grammar: one search = per fork") {
  if (!glrmask::testing::require_data_dir("wfa_engine_corpus_test (Python forks)"))
    return glrmask::testing::skip_test_case();
  glr::ParseOptions options;
  options.postlex = glr::PostLexer::kPythonIndenter;
  const auto grammar = glr::CompiledGrammar::load_lark(
      data_dir() / "grammars" / "syncode" / "python_grammar.lark", options);
  const Vocabulary vocabulary = Vocabulary::load(glrmask::testing::fixtures_dir() / "tokenizers" /
                                                 "tiny_byte_level" / "tokenizer.json");
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  const std::vector<char> expected =
      glrmask::testing::ends_through_ignored_per_fork(compiled->terminal_dwa());
  CHECK(lexer::forks_ending_through_ignored(compiled->terminal_dwa()) == expected);
  CHECK(std::count(expected.begin(), expected.end(), 1) > 0);  // COMMENT is ignored text here
}
