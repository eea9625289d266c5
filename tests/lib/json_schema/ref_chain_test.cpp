// $ref chains merged at one place (lib/json_schema/merge.cpp): a long chain of distinct $refs is
// an ordinary schema and compiles, and a target reached by many paths is merged once; a chain that
// comes back to a schema it is merging is a loop, refused with the JSON pointer of the $ref that
// closes it and the chain.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"

using namespace glrmask;
using glrmask::json_schema::compile_json_schema_text;

namespace {

// {"$ref": "#/$defs/d0"}, d_i = {"$ref": "#/$defs/d_{i+1}"}, the last one `last`.
std::string ref_chain(int length, const std::string& last) {
  std::string defs;
  for (int i = 0; i + 1 < length; ++i)
    defs += fmt::format("\"d{}\": {{\"$ref\": \"#/$defs/d{}\"}}, ", i, i + 1);
  defs += fmt::format("\"d{}\": {}", length - 1, last);
  return fmt::format("{{\"$ref\": \"#/$defs/d0\", \"$defs\": {{{}}}}}", defs);
}

// d_i = allOf [$ref d_{i-1}, $ref d_{i-1}, {"maximum": 1000 - i}] under 2020-12, d_0 an integer of
// at least 3: 2^levels paths reach d_0, one conjunction of levels + 1 distinct parts.
std::string doubling_chain(int levels) {
  std::string defs = "\"d0\": {\"type\": \"integer\", \"minimum\": 3}";
  for (int i = 1; i <= levels; ++i)
    defs += fmt::format(
        ", \"d{0}\": {{\"allOf\": [{{\"$ref\": \"#/$defs/d{1}\"}}, {{\"$ref\": "
        "\"#/$defs/d{1}\"}}, {{\"maximum\": {2}}}]}}",
        i, i - 1, 1000 - i);
  return fmt::format("{{\"$ref\": \"#/$defs/d{}\", \"$defs\": {{{}}}}}", levels, defs);
}

bool chain_accepts(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                   const std::string& instance) {
  glr::Session session(grammar);
  return session.try_commit_bytes(instance) && session.is_accepting();
}

}  // namespace

TEST_CASE("a $ref target reached by 2 to the 60 paths is merged once, with every level's bound") {
  // Without merging each target once this takes 2^60 steps (the test would never end).
  const auto grammar =
      glr::CompiledGrammar::compile(compile_json_schema_text(doubling_chain(60), "doubling.json"));
  CHECK(chain_accepts(grammar, "3"));
  CHECK(chain_accepts(grammar, "940"));  // the bound of the top level: 1000 - 60
  CHECK_FALSE(chain_accepts(grammar, "941"));
  CHECK_FALSE(chain_accepts(grammar, "2"));
  CHECK_FALSE(chain_accepts(grammar, "\"3\""));
}

TEST_CASE("a chain of 65 and of 500 distinct $refs compiles") {
  for (const int length : {65, 500}) {
    INFO(length);
    const GrammarModel grammar =
        compile_json_schema_text(ref_chain(length, "{\"type\": \"integer\"}"), "chain.json");
    CHECK(grammar.num_terminals() > 0);
  }
}

TEST_CASE("a $ref chain that loops is refused with the pointer and the chain") {
  const std::string schema = ref_chain(3, "{\"$ref\": \"#/$defs/d1\"}");
  CHECK_THROWS_WITH(compile_json_schema_text(schema, "loop.json"),
                    Catch::Contains("loop.json") && Catch::Contains("/$defs/d2/$ref") &&
                        Catch::Contains("$ref loops") &&
                        Catch::Contains("#/$defs/d1 -> #/$defs/d2 -> #/$defs/d1"));
  CHECK_THROWS_WITH(compile_json_schema_text("{\"$ref\": \"#\"}", "self.json"),
                    Catch::Contains("$ref loops"));
  // Drafts 4-7, where $ref replaces the schema it stands in: the same refusal.
  const std::string draft7 =
      "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", " + schema.substr(1);
  CHECK_THROWS_WITH(compile_json_schema_text(draft7, "loop7.json"),
                    Catch::Contains("loop7.json") && Catch::Contains("/$defs/d2/$ref") &&
                        Catch::Contains("#/$defs/d1 -> #/$defs/d2 -> #/$defs/d1"));
}
