// $ref chains merged at one place (lib/json_schema/merge.cpp): a long chain of distinct $refs is
// an ordinary schema and compiles; a chain that comes back to a schema it is merging is a loop,
// refused with the JSON pointer of the $ref that closes it and the chain.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>

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

}  // namespace

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
