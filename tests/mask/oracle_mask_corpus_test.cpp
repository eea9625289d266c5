// The oracle mask engine with the Llama-3 vocabulary under teacher forcing on SynCode's JSON and
// SQL grammars: the next real token is always allowed, EOS exactly where the text could end.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;

namespace {

TEST_CASE("oracle with Llama-3: teacher-forced tokens always allowed, EOS only at the end") {
  if (!glrmask::testing::require_data_dir("wfa_oracle_mask_test (SynCode JSON and SQL grammars)") ||
      !glrmask::testing::require_tokenizer("llama3"))
    return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const TokenId eos = *vocabulary.eos();
  mask::OracleEngine oracle(vocabulary);
  const auto syncode = data_dir() / "grammars" / "syncode";

  SECTION("JSON: a top-level object is complete only at its last byte") {
    const auto grammar = glr::CompiledGrammar::load_lark(syncode / "json_grammar.lark");
    const std::string text =
        R"({"id": 17, "name": "Ada Lovelace", "tags": ["math", "engine"], "ratio": -0.25e3,)"
        R"( "ok": true, "next": null, "nested": {"a": [], "b": {}}})";
    const std::vector<TokenId> ids = encoder.encode(text);
    glr::Session session(grammar, &vocabulary);
    for (std::size_t step = 0; step <= ids.size(); ++step) {
      const DenseMask mask = engine_mask(oracle, session, vocabulary);
      const bool at_end = step == ids.size();
      INFO("step " << step << " of " << ids.size());
      CHECK(mask.test(eos) == at_end);
      if (at_end) break;
      INFO("next token " << ids[step] << " \"" << vocabulary.bytes(ids[step]) << "\"");
      CHECK(mask.test(ids[step]));
      for (const TokenId special : vocabulary.special_ids())
        if (special != eos) CHECK_FALSE(mask.test(special));
      session.commit(ids[step]);
    }
    CHECK(session.is_accepting());
  }

  SECTION("SQL: the next real token is allowed, EOS exactly when the query could end") {
    const auto grammar = glr::CompiledGrammar::load_lark(syncode / "sql_grammar.lark");
    const std::string query =
        "SELECT T2.name , count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  "
        "T2.stadium_id GROUP BY T1.stadium_id";
    const std::vector<TokenId> ids = encoder.encode(query);
    glr::Session session(grammar, &vocabulary);
    for (std::size_t step = 0; step < ids.size(); ++step) {
      INFO("step " << step << ", next token \"" << vocabulary.bytes(ids[step]) << "\"");
      const DenseMask mask = engine_mask(oracle, session, vocabulary);
      CHECK(mask.test(ids[step]));
      CHECK(mask.test(eos) == session.is_accepting());
      session.commit(ids[step]);
    }
    CHECK(engine_mask(oracle, session, vocabulary).test(eos));
  }
}

}  // namespace
