// unevaluatedProperties and unevaluatedItems (lib/json_schema/unevaluated.h), one case per
// construct that decides what is evaluated, each with instances just inside and just outside the
// schema; and the merges and complements the rewriting relies on (each of those once accepted an
// invalid instance or refused a schema it can express). The verdicts are python3-jsonschema's
// (`validator_for(schema)(schema).is_valid(json.loads(instance))`, jsonschema 4.26) unless a
// comment says otherwise; instances are in json.dumps's layout, compiled under any property order.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/instance_check.h"
#include "lib/json_schema/value.h"

using namespace glrmask;

namespace {

json_schema::SchemaOptions unevaluated_test_options() {
  json_schema::SchemaOptions options;
  options.property_order = json_schema::PropertyOrder::kAny;
  return options;
}

// Every instance's verdict under `schema`, through the compiled grammar and through the direct
// check of one value (instance_check.h), which must agree.
void check_unevaluated_verdicts(const std::string& schema,
                                const std::vector<std::pair<std::string, bool>>& verdicts) {
  const auto grammar = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema_text(schema, "s.json", unevaluated_test_options()));
  const json_schema::JsonValue root = json_schema::parse_json(schema, "s.json");
  const json_schema::SchemaDocument document(root, "s.json");
  for (const auto& [instance, valid] : verdicts) {
    INFO(schema << "\n  instance " << instance);
    glr::Session session(grammar);
    const bool accepted = session.try_commit_bytes(instance) && session.is_accepting();
    CHECK(accepted == valid);
    const json_schema::JsonValue value = json_schema::parse_json(instance, "i.json");
    CHECK(json_schema::instance_validates(document, root, value, "") == valid);
  }
}

std::string unevaluated_compile_error(const std::string& schema) {
  try {
    json_schema::compile_json_schema_text(schema, "s.json", unevaluated_test_options());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("properties and patternProperties beside unevaluatedProperties evaluate keys") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": {"type": "string"}}, "patternProperties":
                               {"^x": {"type": "integer"}}, "unevaluatedProperties": {"type":
                               "boolean"}})",
                             {{R"({"foo": "a"})", true},
                              {R"({"foo": "a", "x1": 2})", true},
                              {R"({"foo": "a", "bar": true})", true},
                              {R"({"foo": "a", "bar": 1})", false},
                              {R"({"x1": "s"})", false},
                              {R"({"xa": 1, "b": false})", true},
                              {R"([1])", true},
                              {R"("s")", true}});
}

TEST_CASE("unevaluatedProperties in one allOf part does not see a sibling's properties") {
  // The suite's "can't see inside cousins".
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "allOf": [{"properties": {"foo": true}},
                               {"unevaluatedProperties": false}]})",
                             {{R"({})", true}, {R"({"foo": 1})", false}, {R"(1)", true}});
}

TEST_CASE("the properties of allOf parts count for the outer unevaluatedProperties") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": {"type": "string"}}, "allOf":
                               [{"properties": {"bar": {"type": "string"}}}],
                               "unevaluatedProperties": false})",
                             {{R"({"foo": "a", "bar": "b"})", true},
                              {R"({"foo": "a", "bar": "b", "baz": "c"})", false},
                              {R"({"bar": 1})", false}});
}

TEST_CASE("every anyOf branch that matches evaluates, not only the first") {
  // bar and baz both match in the second instance, so both are evaluated; a baz that fails its
  // branch is not.
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": {"type": "string"}}, "anyOf":
                               [{"properties": {"bar": {"const": "bar"}}, "required": ["bar"]},
                               {"properties": {"baz": {"const": "baz"}}, "required": ["baz"]}],
                               "unevaluatedProperties": false})",
                             {{R"({"foo": "a", "bar": "bar"})", true},
                              {R"({"bar": "bar", "baz": "baz"})", true},
                              {R"({"bar": "bar", "baz": "no"})", false},
                              {R"({"baz": "baz"})", true},
                              {R"({"foo": "a"})", false},
                              {R"({"bar": "bar", "quux": 1})", false}});
}

TEST_CASE("the oneOf branch that matches evaluates its properties") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "oneOf": [{"properties": {"a": {"type": "integer"}}, "required":
                               ["a"]}, {"properties": {"b": {"type": "integer"}}, "required":
                               ["b"]}], "unevaluatedProperties": false})",
                             {{R"({"a": 1})", true},
                              {R"({"b": 1})", true},
                              {R"({"a": 1, "b": 1})", false},
                              {R"({"a": 1, "c": 1})", false},
                              {R"({"a": "s", "b": 1})", false},
                              {R"({})", false}});
}

TEST_CASE("not evaluates nothing, even when the schema under it holds") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": true}, "not": {"not": {"properties":
                               {"bar": true}, "required": ["bar"]}}, "unevaluatedProperties":
                               false})",
                             {{R"({"foo": 1})", false},
                              {R"({"foo": 1, "bar": 1})", false},
                              {R"({"bar": 1})", false},
                              {R"(2)", true}});
}

TEST_CASE("if and then evaluate when if holds, else when it fails") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "if":
                               {"properties": {"foo": {"const": "then"}}, "required": ["foo"]},
                               "then": {"properties": {"bar": {"type": "string"}}}, "else":
                               {"properties": {"baz": {"type": "string"}}},
                               "unevaluatedProperties": false})",
                             {{R"({"foo": "then", "bar": "b"})", true},
                              {R"({"foo": "then", "baz": "b"})", false},
                              {R"({"baz": "b"})", true},
                              {R"({"foo": "else", "baz": "b"})", false},
                              {R"({"bar": "b"})", false},
                              {R"({})", true}});
}

TEST_CASE("an if without then or else evaluates when it holds") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "if":
                               {"patternProperties": {"foo": {"type": "string"}}},
                               "unevaluatedProperties": false})",
                             {{R"({"foo": "a"})", true},
                              {R"({"foo": 1})", false},
                              {R"({"bar": "a"})", false},
                              {R"({})", true}});
}

TEST_CASE("dependentSchemas evaluates when its property is present") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": true}, "dependentSchemas": {"foo":
                               {"properties": {"bar": {"const": 1}}}}, "unevaluatedProperties":
                               false})",
                             {{R"({"foo": 1, "bar": 1})", true},
                              {R"({"bar": 1})", false},
                              {R"({"foo": 1, "bar": 2})", false},
                              {R"({"foo": 1})", true},
                              {R"({})", true}});
}

TEST_CASE("a $ref's target evaluates for the unevaluatedProperties beside it") {
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "$ref": "#/$defs/bar", "properties": {"foo": {"type": "string"}},
                               "unevaluatedProperties": false, "$defs": {"bar": {"properties":
                               {"bar": {"type": "string"}}}}})",
      {{R"({"foo": "a", "bar": "b"})", true}, {R"({"foo": "a", "bar": "b", "baz": "c"})", false}});
}

TEST_CASE("a $ref to the root inside properties: each level evaluates its own members") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"x": {"$ref": "#"}}, "unevaluatedProperties":
                               false})",
                             {{R"({})", true},
                              {R"({"x": {}})", true},
                              {R"({"x": {}, "y": {}})", false},
                              {R"({"x": {"x": {}}})", true},
                              {R"({"x": {"x": {}, "y": 1}})", false}});
}

TEST_CASE("a nested unevaluatedProperties false sees only its own schema object") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "allOf": [{"properties": {"foo": {"type": "string"}},
                               "unevaluatedProperties": false}], "unevaluatedProperties": true})",
                             {{R"({"foo": "a"})", true}, {R"({"foo": "a", "bar": 1})", false}});
}

TEST_CASE("a nested unevaluatedProperties true evaluates every member") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": {"type": "string"}}, "allOf":
                               [{"unevaluatedProperties": true}], "unevaluatedProperties":
                               false})",
                             {{R"({"foo": "a"})", true}, {R"({"foo": "a", "bar": 1})", true}});
}

TEST_CASE("properties of a member's value are not evaluated at the outer object") {
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": {"properties": {"bar": {"type":
                               "string"}}}}, "unevaluatedProperties": false})",
      {{R"({"foo": {"bar": "a"}})", true}, {R"({"foo": {"bar": "a"}, "bar": "b"})", false}});
}

TEST_CASE("a boolean schema in allOf evaluates nothing") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "properties": {"foo": true}, "allOf": [true],
                               "unevaluatedProperties": false})",
                             {{R"({"foo": 1})", true}, {R"({"bar": 1})", false}});
}

TEST_CASE("prefixItems of every allOf part evaluate their positions") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "prefixItems": [{"type": "string"}], "allOf": [{"prefixItems":
                               [true, {"type": "number"}]}], "unevaluatedItems": {"type":
                               "boolean"}})",
                             {{R"(["a", 1])", true},
                              {R"(["a", 1, true])", true},
                              {R"(["a", 1, 2])", false},
                              {R"(["a"])", true},
                              {R"([1])", false},
                              {R"([])", true}});
}

TEST_CASE("an item past prefixItems is evaluated when it matches contains") {
  // contains beside prefixItems: refused before ("contains or uniqueItems beside prefixItems").
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "prefixItems": [true], "contains": {"type": "string"},
                               "unevaluatedItems": false})",
                             {{R"([1, "foo"])", true},
                              {R"([1, 2])", false},
                              {R"([1, 2, "foo"])", false},
                              {R"(["a", "b"])", true},
                              {R"([1])", false},
                              {R"([])", false}});
}

TEST_CASE("every contains in allOf parts evaluates the items it matches") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "allOf": [{"contains": {"multipleOf": 2}}, {"contains":
                               {"multipleOf": 3}}], "unevaluatedItems": {"multipleOf": 5}})",
                             {{R"([2, 3, 4, 5, 6])", true},
                              {R"([2, 3, 4, 7, 8])", false},
                              {R"([6])", true},
                              {R"([6, 7])", false}});
}

TEST_CASE("anyOf branches with prefixItems of different lengths") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "prefixItems": [{"const": "foo"}], "anyOf": [{"prefixItems":
                               [true, {"const": "bar"}]}, {"prefixItems": [true, true, {"const":
                               "baz"}]}], "unevaluatedItems": false})",
                             {{R"(["foo", "bar"])", true},
                              {R"(["foo", "bar", 42])", false},
                              {R"(["foo", "bar", "baz"])", true},
                              {R"(["foo", "bar", "baz", 42])", false},
                              {R"(["foo", 1, "baz"])", true}});
}

TEST_CASE("contains with minContains 0 still evaluates the items it matches") {
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "contains": {"type": "string"}, "minContains": 0,
                               "unevaluatedItems": false})",
      {{R"([])", true}, {R"([0])", false}, {R"(["foo", 0])", false}, {R"(["foo", "bar"])", true}});
}

TEST_CASE("2019-09: an items array evaluates its positions, contains does not") {
  // 2019-09's unevaluatedItems reads items, additionalItems and unevaluatedItems only
  // (draft 2019-09 core, 9.3.1.3; contains joined them in 2020-12). python3-jsonschema 4.26
  // counts contains in 2019-09 too and accepts ["a", 1]; the verdict here is the specification's.
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2019-09/schema",
                               "items": [{"type": "string"}], "contains": {"type": "integer"},
                               "unevaluatedItems": false})",
      {{R"(["a"])", false}, {R"(["a", 1])", false}, {R"([1])", false}, {R"(["a", "b"])", false}});
}

TEST_CASE("2019-09: additionalItems after an items array evaluates the rest") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2019-09/schema",
                               "allOf": [{"items": [{"type": "string"}], "additionalItems":
                               true}], "unevaluatedItems": false})",
                             {{R"(["a", 1, true])", true}, {R"([1])", false}});
}

TEST_CASE("before 2019-09 unevaluatedProperties is an unknown keyword") {
  check_unevaluated_verdicts(R"({"$schema": "http://json-schema.org/draft-07/schema#",
                               "properties": {"foo": true}, "unevaluatedProperties": false})",
                             {{R"({"foo": 1, "bar": 1})", true}});
}

TEST_CASE("the complement of a schema with unevaluatedProperties") {
  // The suite's not.json, "collect annotations inside a 'not'".
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "not": {"anyOf": [true, {"properties": {"foo": true}}],
                               "unevaluatedProperties": false}})",
      {{R"({"bar": 1})", true}, {R"({"foo": 1})", false}, {R"({})", false}, {R"(1)", false}});
}

TEST_CASE("oneOf needs the complement of a branch with unevaluatedProperties") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "oneOf": [{"required": ["a"]}, {"properties": {"a": true},
                               "unevaluatedProperties": false}]})",
                             {{R"({"a": 1})", false},
                              {R"({"a": 1, "b": 1})", true},
                              {R"({})", true},
                              {R"({"b": 1})", false}});
}

TEST_CASE("enum members are checked against unevaluatedProperties one by one") {
  check_unevaluated_verdicts(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "enum": [{"a": 1}, {"a": 1, "b": 2}, {"c": 3}], "properties":
                               {"a": true}, "unevaluatedProperties": false})",
      {{R"({"a": 1})", true}, {R"({"a": 1, "b": 2})", false}, {R"({"c": 3})", false}});
}

TEST_CASE("a property declared after a merge meets each part's additionalProperties") {
  // The merged parts kept their additionalProperties apart (key parts); the anyOf branch
  // declared p, which took none of them, so {"p": 1} was accepted.
  check_unevaluated_verdicts(R"({"allOf": [{"patternProperties": {"^a": {"type": "string"}},
                               "additionalProperties": false}, {"additionalProperties": {"type":
                               "number"}}], "anyOf": [{"properties": {"p": {}}}]})",
                             {{R"({"p": 1})", false}, {R"({"a": "x"})", false}, {R"({})", true}});
}

TEST_CASE("an additionalProperties merged after key parts joins them") {
  // The branch's additionalProperties was dropped beside the merged key parts, so {"a": "x"}
  // was accepted.
  check_unevaluated_verdicts(R"({"allOf": [{"patternProperties": {"^a": {"type": "string"}},
                               "additionalProperties": false}, {"patternProperties": {"^b":
                               {"type": "string"}}}], "anyOf": [{"additionalProperties":
                               {"type": "number"}}]})",
                             {{R"({"a": "x"})", false}, {R"({})", true}, {R"({"b": "x"})", false}});
}

TEST_CASE("the complement of oneOf beside if keeps then and else") {
  // then / else were dropped when another combinator came first, so if alone made the
  // conjunct true and its complement empty.
  check_unevaluated_verdicts(
      R"({"not": {"oneOf": [{"additionalProperties": {"type": "integer"}},
                               {"additionalProperties": false}], "if": {"required": ["a"]},
                               "else": false}})",
      {{R"({"ab": 1})", true}, {R"({"a": 1})", false}, {R"({})", true}, {R"({"a": "s"})", true}});
}

TEST_CASE("maxContains binds its own part's contains in an allOf") {
  // The second part's maxContains bound the first part's contains, so ["a", "b", "b"] was
  // accepted.
  check_unevaluated_verdicts(R"({"allOf": [{"contains": {"const": "a"}}, {"contains": {"const":
                               "b"}, "maxContains": 1}]})",
                             {{R"(["a", "b", "b"])", false},
                              {R"(["a", "b"])", true},
                              {R"(["a"])", false},
                              {R"(["b"])", false}});
}

TEST_CASE("the complement of items after prefixItems") {
  // Refused before ("the complement of items after prefixItems is not supported").
  check_unevaluated_verdicts(R"({"not": {"prefixItems": [{"type": "string"}], "items": {"type":
                               "integer"}}})",
                             {{R"(["a", 1, "b"])", true},
                              {R"(["a", 1, 2])", false},
                              {R"([1, 1, 2])", true},
                              {R"(["a"])", false},
                              {R"([])", false}});
}

TEST_CASE("the complement of contains with minContains and maxContains") {
  // Refused before.
  check_unevaluated_verdicts(R"({"not": {"contains": {"type": "string"}, "minContains": 2,
                               "maxContains": 3}})",
                             {{R"(["a", 1])", true},
                              {R"(["a", "b", 1])", false},
                              {R"(["a", "b", "c", "d"])", true},
                              {R"([])", true}});
}

TEST_CASE("the complement of unevaluatedItems after prefixItems") {
  check_unevaluated_verdicts(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "not": {"prefixItems": [{"type": "string"}], "unevaluatedItems":
                               {"type": "integer"}}})",
                             {{R"(["a", 1, "b"])", true},
                              {R"(["a", 1, 2])", false},
                              {R"([1])", true},
                              {R"([])", false},
                              {R"(["a"])", false}});
}

TEST_CASE("anyOf branches that may match together: 8 branches, 255 sets") {
  check_unevaluated_verdicts(
      R"({"anyOf": [{"properties": {"a": true}}, {"properties": {"b":
                               true}}, {"properties": {"c": true}}, {"properties": {"d": true}},
                               {"properties": {"e": true}}, {"properties": {"f": true}},
                               {"properties": {"g": true}}, {"properties": {"h": true}}],
                               "unevaluatedProperties": false})",
      {{R"({"a": 1, "h": 2})", true}, {R"({"z": 1})", false}, {R"({})", true}});
}

TEST_CASE("the complement of allOf parts that constrain undeclared keys differently") {
  // Refused before ("the complement of additionalProperties is not supported").
  check_unevaluated_verdicts(R"({"not": {"allOf": [{"patternProperties": {"^a": {"type":
                               "string"}}, "additionalProperties": false}, {"patternProperties":
                               {"^b": {"type": "integer"}}}]}})",
                             {{R"({})", false},
                              {R"({"a": "x"})", false},
                              {R"({"a": 1})", true},
                              {R"({"b": 1})", true},
                              {R"({"ba": 1})", true},
                              {R"({"ab": "x"})", false},
                              {R"(1)", false}});
}
TEST_CASE("anyOf branches that may match together: 9 branches are refused at the keyword") {
  using Catch::Matchers::Contains;
  const std::string schema = R"({"anyOf": [{"properties": {"a": true}}, {"properties": {"b": true}},
      {"properties": {"c": true}}, {"properties": {"d": true}}, {"properties": {"e": true}},
      {"properties": {"f": true}}, {"properties": {"g": true}}, {"properties": {"h": true}},
      {"properties": {"i": true}}], "unevaluatedProperties": false})";
  CHECK_THAT(unevaluated_compile_error(schema),
             Contains("s.json#/unevaluatedProperties") && Contains("256 combinations"));
  // Nested: the innermost keyword whose evaluated set needs the combinations is named.
  const std::string nested = R"({"properties": {"x": )" + schema + "}}";
  CHECK_THAT(unevaluated_compile_error(nested),
             Contains("s.json#/properties/x/unevaluatedProperties"));
}
