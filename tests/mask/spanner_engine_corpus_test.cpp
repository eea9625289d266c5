// The spanner engine against the oracle at every teacher-forced step of real JSON (Llama-3) and
// SQL (Llama-2), and on the SQL tokens whose verdicts once differed between the session and the
// spanner's rule. Release only: the code paths are those of spanner_engine_test's fixtures (the
// shadowed keyword and ı among them), which the sanitizer build runs.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::token_of;

TEST_CASE("spanner = oracle at every teacher-forced step: SynCode JSON (Llama-3), SQL (Llama-2)") {
  if (!glrmask::testing::require_data_dir("wfa_spanner_engine_test (SynCode JSON and SQL)"))
    return glrmask::testing::skip_test_case();
  const auto syncode = data_dir() / "grammars" / "syncode";
  if (glrmask::testing::require_tokenizer("llama3")) {
    const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
    const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
    const auto grammar = glr::CompiledGrammar::load_lark(syncode / "json_grammar.lark");
    mask::OracleEngine oracle(vocabulary);
    mask::SpannerEngine spanner(grammar, vocabulary);
    glrmask::testing::compare_teacher_forced(
        grammar, spanner, oracle, vocabulary, encoder,
        R"({"id": 17, "name": "Ada", "tags": ["x", "y z"], "r": -0.25e3})");
    glrmask::testing::compare_teacher_forced(
        grammar, spanner, oracle, vocabulary, encoder,
        "[true, false, null, {\"a\": {}}, [], \"\\u00e9\\n\"]");
  }
  if (glrmask::testing::require_tokenizer("llama2")) {
    const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama2"));
    const Encoder encoder = Encoder::load(resolve_tokenizer("llama2"));
    const auto grammar = glr::CompiledGrammar::load_lark(syncode / "sql_grammar.lark");
    mask::OracleEngine oracle(vocabulary);
    mask::SpannerEngine spanner(grammar, vocabulary);
    glrmask::testing::compare_teacher_forced(
        grammar, spanner, oracle, vocabulary, encoder,
        "SELECT T2.name , count(*) FROM concert AS T1 JOIN stadium AS T2 ON "
        "T1.stadium_id  =  T2.stadium_id GROUP BY T1.stadium_id");
    glrmask::testing::compare_teacher_forced(
        grammar, spanner, oracle, vocabulary, encoder,
        "SELECT name FROM singer WHERE age > 20 ORDER BY name DESC");
    // The two tokens whose verdicts once differed between the session and the DWA rule: the
    // cross join needs an anonymous "JOIN"i that JOIN_EXPR always shadows; "\xc4" begins "ı",
    // which case-folds to "I" ("T" + "ınner join").
    glr::Session session(grammar, &vocabulary);
    session.commit_bytes("SELECT name FROM concert AS T");
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    const DenseMask actual = engine_mask(spanner, session, vocabulary);
    CHECK(actual == expected);
    CHECK_FALSE(expected.test(token_of(vocabulary, " cross")));
    CHECK(expected.test(token_of(vocabulary, "\xc4")));
    CHECK(expected.test(token_of(vocabulary, " inner")));
    glrmask::testing::compare_teacher_forced(
        grammar, spanner, oracle, vocabulary, encoder,
        "SELECT name FROM concert AS T\xc4\xb1nner join stadium AS S ON T.a = S.b");
  }
}
