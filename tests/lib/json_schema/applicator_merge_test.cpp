// The merge of an applicator (allOf, a $ref's siblings) with the keywords beside it, and the key
// regexes the object compiler assembles from parts: each case is a schema whose compiled grammar
// once accepted an invalid instance (or refused a schema it can express). The expected verdicts
// are python3-jsonschema's (`validator_for(schema)(schema).is_valid(json.loads(instance))`,
// jsonschema 4.10), checked when the cases were written; instances are in the default layout
// (json.dumps's separators).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/json_schema/compiler.h"

using namespace glrmask;

namespace {

// Every instance's verdict under `schema`, as (instance, valid) pairs.
void check_verdicts(const std::string& schema,
                    const std::vector<std::pair<std::string, bool>>& verdicts) {
  const auto grammar = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema_text(schema, "s.json", json_schema::SchemaOptions{}));
  for (const auto& [instance, valid] : verdicts) {
    glr::Session session(grammar);
    const bool accepted = session.try_commit_bytes(instance) && session.is_accepting();
    INFO(schema << "\n  instance " << instance);
    CHECK(accepted == valid);
  }
}

}  // namespace

TEST_CASE("an outer items applies to every element, not after an allOf's prefixItems") {
  // The suite's items.json, "items does not look in applicators".
  check_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                     "allOf": [{"prefixItems": [{"minimum": 3}]}], "items": {"minimum": 5}})",
                 {{"[3, 5]", false},
                  {"[5, 5]", true},
                  {"[6]", true},
                  {"[4]", false},
                  {"[5, 4]", false},
                  {"[]", true}});
}

TEST_CASE("prefixItems of different lengths combine position by position with each part's items") {
  // Refused before ("prefixItems of different lengths cannot be combined").
  check_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                     "allOf": [{"prefixItems": [{"type": "integer"}]},
                               {"prefixItems": [{"minimum": 1}, {"type": "string"}],
                                "items": false}]})",
                 {{R"([1, "a"])", true},
                  {R"([0, "a"])", false},
                  {"[1, 2]", false},
                  {R"([1, "a", 3])", false},
                  {"[1]", true},
                  {"[1.5]", false}});
}

TEST_CASE("draft 4's items array and additionalItems inside allOf meet an outer items") {
  check_verdicts(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                     "allOf": [{"items": [{"type": "integer"}],
                                "additionalItems": {"type": "string"}}],
                     "items": {"maximum": 10}})",
                 {{R"([1, "a"])", true}, {"[11]", false}, {"[1, 2]", false}, {R"(["a"])", false}});
}

TEST_CASE("a propertyNames enum restricts extra keys as a group, beside the declared names") {
  // The extra-key regex was `(?!"a")"b"|"a"`: the lookahead guarded "b" only, so "a" matched as
  // an extra key with any value.
  check_verdicts(R"({"type": "object", "properties": {"a": {"type": "boolean"}},
                     "propertyNames": {"enum": ["b", "a"]}})",
                 {{R"({"a": "bad"})", false},
                  {R"({"a": true})", true},
                  {R"({"b": 1})", true},
                  {R"({"c": 1})", false},
                  {R"({"a": true, "b": "x"})", true},
                  {"{}", true}});
  // With patternProperties, the enum meets every key region.
  check_verdicts(R"({"type": "object", "properties": {"a": {"type": "boolean"}},
                     "patternProperties": {"^x": {"type": "integer"}},
                     "propertyNames": {"enum": ["xa", "a", "xb"]}})",
                 {{R"({"xa": 1})", true},
                  {R"({"xa": "s"})", false},
                  {R"({"a": 1})", false},
                  {R"({"xb": 2})", true},
                  {R"({"xc": 2})", false},
                  {R"({"b": 1})", false}});
}

TEST_CASE("minContains of a part without contains does not bind another part's contains") {
  check_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                     "allOf": [{"contains": {"type": "integer"}}, {"minContains": 3}]})",
                 {{"[1]", true}, {R"(["a"])", false}, {"[1, 2, 3]", true}});
}
