// The Parser DWA of real grammars built by one thread and by two: the same automaton (states,
// start states, transitions, weights). SynCode's Go grammar under its `--policy lark --skippable
// EOS` convention has guarded work, SQL the most transitions per state. Labelled `corpus` (the
// sanitizer pass runs the small grammars of wfa_parser_dwa_parallel_test instead).
#include <catch2/catch.hpp>

#include "lib/core/settings.h"
#include "tests/support/parser_dwa_test_support.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::compile_with_threads;
using glrmask::testing::require_same_parser_dwa;

TEST_CASE("Parser DWA: one thread and two build the same automaton for SynCode Go and SQL") {
  if (!glrmask::testing::require_data_dir("wfa_parser_dwa_parallel_corpus_test"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  glr::ParseOptions go;
  go.policy = glr::ConflictPolicy::kLark;
  go.skippable = {"EOS"};
  for (const auto& [file, options] :
       {std::pair{"go_grammar.lark", go}, std::pair{"sql_grammar.lark", glr::ParseOptions{}}}) {
    INFO(file);
    const auto grammar =
        glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / file, options);
    const auto one = compile_with_threads(grammar, vocabulary, 1);
    const auto two = compile_with_threads(grammar, vocabulary, 2);
    CHECK(two->parser_dwa().stats().build_threads == 2);
    CHECK(one->parser_dwa().num_states() > 10000);
    if (std::string(file) == "go_grammar.lark") CHECK(one->parser_dwa().stats().guarded_states > 0);
    require_same_parser_dwa(*one, *two);
  }
}
