// JSON Schema constraints end to end: each fixture schema (tests/fixtures/json_schema/, every
// instance checked by python3-jsonschema when the fixture was written) is compiled, and every
// instance is teacher-forced through a Session with the Llama-3 encoder (plain bytes when the
// tokenizer is not installed): valid instances must keep every token viable and allow EOS at the
// end, invalid ones must be refused somewhere. Also: whitespace modes, error messages naming the
// JSON pointer, the --regex and --any-json grammars, and a fixed subset of MaskBench.
#include <catch2/catch.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/grammar/regex_constraint.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

using json_schema::JsonValue;
using json_schema::SchemaOptions;
using json_schema::Whitespace;

struct Tokenizer {
  Vocabulary vocabulary;
  Encoder encoder;
};

const Tokenizer* llama3() {
  static const std::unique_ptr<Tokenizer> tokenizer = []() -> std::unique_ptr<Tokenizer> {
    if (!testing::require_tokenizer("llama3")) return nullptr;
    const auto path = resolve_tokenizer("llama3");
    return std::make_unique<Tokenizer>(Tokenizer{Vocabulary::load(path), Encoder::load(path)});
  }();
  return tokenizer.get();
}

// Empty when `text` is accepted (every token viable, EOS allowed at the end); else why not.
std::string force(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                  const std::string& text) {
  const Tokenizer* tokenizer = llama3();
  glr::Session session(grammar, tokenizer ? &tokenizer->vocabulary : nullptr);
  try {
    if (tokenizer) {
      for (const TokenId id : tokenizer->encoder.encode(text)) session.commit(id);
    } else {
      for (const char c : text) session.commit_bytes(std::string(1, c));
    }
  } catch (const Error& e) {
    return e.what();
  }
  return session.is_accepting() ? "" : "EOS refused";
}

std::string serialize(const JsonValue& value, Whitespace whitespace) {
  switch (whitespace) {
    case Whitespace::kCompact:
      return json_schema::to_json_text(value, ",", ":");
    case Whitespace::kFlexible:
      return "\n " + json_schema::to_json_text(value, " ,\n\t", " :  ") + "\r\n";
    case Whitespace::kDefault:
      break;
  }
  return json_schema::to_json_text(value);
}

JsonValue read_json(const std::filesystem::path& path) {
  return json_schema::parse_json(testing::read_file(path), path.string());
}

std::vector<std::filesystem::path> fixtures() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::fixtures_dir() / "json_schema"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

void check_fixture(const std::filesystem::path& file, Whitespace whitespace) {
  const JsonValue fixture = read_json(file);
  SchemaOptions options;
  options.whitespace = whitespace;
  const auto grammar = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema(*fixture.find("schema"), file.string(), options));
  for (const JsonValue& instance : fixture.find("valid")->items) {
    const std::string text = serialize(instance, whitespace);
    INFO(file.filename().string() << " valid: " << text);
    CHECK(force(grammar, text) == "");
  }
  for (const JsonValue& instance : fixture.find("invalid")->items) {
    const std::string text = serialize(instance, whitespace);
    INFO(file.filename().string() << " invalid: " << text);
    CHECK(force(grammar, text) != "");
  }
}

TEST_CASE("every fixture schema accepts its valid instances and refuses its invalid ones") {
  const auto files = fixtures();
  REQUIRE(files.size() >= 10);
  for (const auto& file : files) check_fixture(file, Whitespace::kDefault);
}

TEST_CASE("the compact and flexible whitespace modes, on every fixture") {
  for (const auto& file : fixtures()) {
    check_fixture(file, Whitespace::kCompact);
    check_fixture(file, Whitespace::kFlexible);
  }
}

std::shared_ptr<const glr::CompiledGrammar> compile_text(const std::string& schema,
                                                         SchemaOptions options = {}) {
  return glr::CompiledGrammar::compile(
      json_schema::compile_json_schema_text(schema, "test.json", options));
}

TEST_CASE("whitespace modes are exact: default is Python's json.dumps, compact has none") {
  const std::string schema = R"({"type": "object", "properties": {"a": {"type": "array"}}})";
  const auto by_default = compile_text(schema);
  CHECK(force(by_default, R"({"a": [1, 2]})") == "");
  CHECK(force(by_default, R"({"a":[1,2]})") != "");
  CHECK(force(by_default, R"({"a": [1,  2]})") != "");
  CHECK(force(by_default, R"( {"a": []})") != "");
  SchemaOptions compact;
  compact.whitespace = Whitespace::kCompact;
  const auto compact_grammar = compile_text(schema, compact);
  CHECK(force(compact_grammar, R"({"a":[1,2]})") == "");
  CHECK(force(compact_grammar, R"({"a": [1, 2]})") != "");
  SchemaOptions flexible;
  flexible.whitespace = Whitespace::kFlexible;
  const auto flexible_grammar = compile_text(schema, flexible);
  CHECK(force(flexible_grammar, "{\"a\":[1,2]}") == "");
  CHECK(force(flexible_grammar, "\t{ \"a\" :\n[ 1 , 2 ] }\n") == "");
}

// Required names that `properties` does not declare carry no order in JSON Schema; they were
// once forced into alphabetical order (`{"zeta": 1, "beta": 2}` refused).
TEST_CASE("required names that properties does not declare come in any order, each once") {
  const auto grammar =
      compile_text(R"({"properties": {"a": {"type": "integer"}}, "required": ["zeta", "beta"]})");
  CHECK(force(grammar, R"({"zeta": 1, "beta": 2})") == "");
  CHECK(force(grammar, R"({"beta": 2, "zeta": 1})") == "");
  CHECK(force(grammar, R"({"a": 0, "zeta": 1, "beta": 2})") == "");
  CHECK(force(grammar, R"({"a": 0, "beta": 2, "x": null, "zeta": 1})") == "");
  CHECK(force(grammar, R"({"zeta": 1})") != "");
  CHECK(force(grammar, R"({"zeta": 1, "beta": 2, "zeta": 3})") != "");
  CHECK(force(grammar, R"({"a": "no", "zeta": 1, "beta": 2})") != "");
  // Schema order still puts declared properties first (documented).
  CHECK(force(grammar, R"({"zeta": 1, "beta": 2, "a": 0})") != "");
}

// Drafts 4 to 7 ignore the keywords beside `$ref`; 2019-09 and later apply them.
TEST_CASE("keywords beside $ref follow the schema's draft") {
  const std::string body =
      R"("definitions": {"e": {"type": "object", "properties": {"enabled": {"type": "boolean"}}}},
         "type": "object",
         "properties": {"c": {"$ref": "#/definitions/e",
                              "properties": {"config": {"type": "object"}}}}})";
  const std::string instance = R"({"c": {"enabled": true, "config": {}}})";
  for (const char* draft : {"draft-04/schema#", "draft-06/schema#", "draft-07/schema#"}) {
    INFO(draft);
    const auto grammar = compile_text(std::string(R"({"$schema": "http://json-schema.org/)") +
                                      draft + R"(", )" + body);
    CHECK(force(grammar, instance) == "");
    // The sibling is ignored, so "config" is any extra member.
    CHECK(force(grammar, R"({"c": {"enabled": true, "config": 5}})") == "");
  }
  const auto modern =
      compile_text(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", )" + body);
  // Siblings apply: "config" must be an object. In schema order the $ref target's properties
  // follow the object's own (documented); any order takes both orders.
  CHECK(force(modern, R"({"c": {"config": {}, "enabled": true}})") == "");
  CHECK(force(modern, R"({"c": {"config": 5, "enabled": true}})") != "");
  SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  const auto modern_any = compile_text(
      R"({"$schema": "https://json-schema.org/draft/2020-12/schema", )" + body, any_order);
  CHECK(force(modern_any, instance) == "");
  CHECK(force(modern_any, R"({"c": {"config": 5, "enabled": true}})") != "");
}

TEST_CASE("any property order: exact up to six names, required names tracked above") {
  SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  const auto small = compile_text(
      R"({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"},
          "c": {"type": "boolean"}}, "required": ["b"], "additionalProperties": false})",
      any_order);
  for (const char* text : {R"({"b": "x"})", R"({"a": 1, "b": "x"})", R"({"b": "x", "a": 1})",
                           R"({"c": true, "b": "x", "a": 1})", R"({"b": "x", "c": false})"})
    CHECK(force(small, text) == "");
  for (const char* text :
       {R"({"a": 1})", R"({"b": "x", "b": "y"})", R"({"a": 1, "b": "x", "a": 2})", R"({"b": 1})",
        R"({"b": "x", "d": 1})", "{}"})
    CHECK(force(small, text) != "");
  // Seven declared names: optional ones may repeat (each occurrence validated), required ones
  // come exactly once.
  const auto large = compile_text(
      R"({"type": "object", "properties": {"p1": {"type": "integer"}, "p2": {"type": "integer"},
          "p3": {"type": "integer"}, "p4": {"type": "integer"}, "p5": {"type": "integer"},
          "p6": {"type": "integer"}, "p7": {"type": "integer"}}, "required": ["p7", "p1"]})",
      any_order);
  CHECK(force(large, R"({"p7": 1, "p3": 2, "p1": 3, "x": "y"})") == "");
  CHECK(force(large, R"({"p1": 1, "p3": 2, "p3": 4, "p7": 3})") == "");
  CHECK(force(large, R"({"p1": 1, "p7": 2, "p1": 3})") != "");
  CHECK(force(large, R"({"p1": 1, "p3": 2})") != "");
  CHECK(force(large, R"({"p1": 1, "p3": "2", "p7": 3})") != "");
}

std::string compile_error(const std::string& schema, SchemaOptions options = {}) {
  try {
    json_schema::compile_json_schema_text(schema, "test.json", options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("refusals name the JSON pointer of the keyword") {
  using Catch::Matchers::Contains;
  // No exact complement of propertyNames ("some key outside its language") is built.
  CHECK_THAT(
      compile_error(R"({"properties": {"a": {"not": {"propertyNames": {"maxLength": 3}}}}})"),
      Contains("test.json#/properties/a/not/propertyNames") && Contains("not supported"));
  // Distinct items over an infinite set are not context-free.
  CHECK_THAT(
      compile_error(R"({"type": "array", "items": {"type": "integer"}, "uniqueItems": true})"),
      Contains("test.json#/uniqueItems") && Contains("finite set"));
  // Overlapping oneOf whose complement is not exact names both branches and the reason.
  CHECK_THAT(
      compile_error(R"({"oneOf": [{"type": "array"},
                                         {"type": "array", "uniqueItems": true}]})"),
      Contains("test.json#/oneOf") && Contains("branches 0 and 1") && Contains("uniqueItems"));
  CHECK_THAT(compile_error(R"({"type": "number", "multipleOf": 0.1234567890123456789})"),
             Contains("test.json#/multipleOf") && Contains("18 significant digits"));
  CHECK_THAT(compile_error(R"({"type": "string", "pattern": "(?=a)b"})"),
             Contains("test.json#/pattern") && Contains("column 1"));
  CHECK_THAT(compile_error(R"({"type": "string", "pattern": "a\\1"})"), Contains("backreferences"));
  // Which names 9 anyOf branches evaluate depends on the 511 sets of them that may match.
  CHECK_THAT(compile_error(R"({"anyOf": [{"properties": {"a": true}}, {"properties": {"b": true}},
      {"properties": {"c": true}}, {"properties": {"d": true}}, {"properties": {"e": true}},
      {"properties": {"f": true}}, {"properties": {"g": true}}, {"properties": {"h": true}},
      {"properties": {"i": true}}], "unevaluatedProperties": false})"),
             Contains("test.json#/unevaluatedProperties") && Contains("combinations"));
  // uniqueItems false and minProperties 0 constrain nothing: accepted.
  CHECK(compile_error(R"({"type": "array", "uniqueItems": false, "minProperties": 0})") == "");
}

TEST_CASE("malformed schemas and bad $refs are errors naming the place") {
  using Catch::Matchers::Contains;
  CHECK_THAT(compile_error(R"({"type": "object",})"), Contains("test.json") && Contains("JSON"));
  CHECK_THAT(compile_error(R"({"properties": {"x": {"$ref": "#/$defs/missing"}}})"),
             Contains("test.json#/properties/x/$ref") && Contains("points to nothing"));
  CHECK_THAT(compile_error(R"({"$ref": "other.json#/a"})"),
             Contains("test.json#/$ref") && Contains("\"other.json\" is not registered"));
  CHECK_THAT(compile_error(R"({"$ref": 5})"), Contains("$ref must be a string"));
  CHECK_THAT(compile_error(R"({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}})"),
             Contains("loops"));
  CHECK_THAT(compile_error(R"({"type": "strin"})"),
             Contains("test.json#/type") && Contains("unknown type"));
  CHECK_THAT(compile_error(R"({"properties": {"a": 3}})"),
             Contains("test.json#/properties/a") && Contains("object or a boolean"));
  CHECK_THAT(compile_error(R"({"type": "string", "minLength": -1})"),
             Contains("test.json#/minLength"));
  CHECK_THAT(compile_error(R"({"type": "string", "maxLength": 2, "minLength": 3})"),
             Contains("test.json#: no JSON value satisfies the schema"));
}

TEST_CASE("lenient mode ignores what it cannot enforce and says where") {
  SchemaOptions lenient;
  lenient.lenient = true;
  const GrammarModel grammar = json_schema::compile_json_schema_text(
      R"({"type": "array", "items": {"type": "integer", "not": {"propertyNames": {"maxLength": 3}}},
          "uniqueItems": true})",
      "test.json", lenient);
  std::vector<std::string> warnings;
  for (const Diagnostic& warning : grammar.warnings()) warnings.push_back(warning.str());
  CHECK(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("test.json#/uniqueItems") != std::string::npos;
  }));
  CHECK(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("test.json#/items/not/propertyNames") != std::string::npos;
  }));
  const auto compiled = glr::CompiledGrammar::compile(grammar);
  CHECK(force(compiled, "[1, 1, 3]") == "");  // the over-approximation, documented
  CHECK(force(compiled, "[1, \"a\"]") != "");
}

TEST_CASE("a maxLength above the repetition cap is lowered, with a warning") {
  SchemaOptions options;
  options.repetition_cap = 5;
  const GrammarModel grammar = json_schema::compile_json_schema_text(
      R"({"type": "string", "maxLength": 100})", "test.json", options);
  REQUIRE(grammar.warnings().size() == 1);
  CHECK(grammar.warnings()[0].str().find("test.json#/maxLength") != std::string::npos);
  const auto compiled = glr::CompiledGrammar::compile(grammar);
  CHECK(force(compiled, "\"abcde\"") == "");
  CHECK(force(compiled, "\"abcdef\"") != "");
  CHECK(compile_error(R"({"type": "string", "minLength": 6})", options).find("#/minLength") !=
        std::string::npos);
}

TEST_CASE("regex constraint (--regex): one terminal, matched in full") {
  const auto grammar =
      glr::CompiledGrammar::compile(regex_constraint_grammar(R"([a-z]+@[a-z]+\.(com|org))", false));
  CHECK(force(grammar, "alice@example.org") == "");
  CHECK(force(grammar, "alice@example") != "");
  CHECK(force(grammar, "alice@example.com ") != "");
  CHECK(force(grammar, "Alice@example.com") != "");
  CHECK_THROWS_AS(regex_constraint_grammar("", false), Error);
}

TEST_CASE("plain JSON (--any-json): any JSON value, every escape, under each whitespace mode") {
  const auto grammar = glr::CompiledGrammar::compile(json_schema::json_grammar());
  for (const std::string text :
       {"null", "[]", "{}", R"({"a": [1, -2.5e+3, true, false, null, {"b": "\u00e9\n\/"}]})",
        R"("\ud83d\ude00")", "0", "-0.0E-7"})
    CHECK(force(grammar, text) == "");
  for (const std::string text : {"", "[1,]", "{\"a\" : 1}", "01", "\"\\x\"", "nul", "[1, 2"})
    CHECK(force(grammar, text) != "");
  for (const auto& file : fixtures()) {
    const JsonValue fixture = read_json(file);
    for (const char* key : {"valid", "invalid"})
      for (const JsonValue& instance : fixture.find(key)->items)
        CHECK(force(grammar, json_schema::to_json_text(instance)) == "");
  }
}

// A fixed, evenly spread subset of MaskBench dev (every 15th file in name order: 20 schemas).
// Soundness is required outright: no invalid instance may be accepted by a schema that compiles.
// Every schema of the subset compiles but one, refused by a documented limit (uniqueItems over
// items of an infinite set); any other refusal is a regression. Every valid instance is accepted
// (schema order happens to suffice for all of them).
TEST_CASE("MaskBench subset: invalid instances are never accepted") {
  if (!testing::require_data_dir("MaskBench subset of the JSON Schema test"))
    return glrmask::testing::skip_test_case();
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  const std::size_t subset = (files.size() + 14) / 15;
  const std::set<std::string> refused = {"JsonSchemaStore---backportrc"};
  std::size_t compiled = 0, valid = 0, valid_passed = 0, invalid = 0;
  for (std::size_t i = 0; i < files.size(); i += 15) {
    const JsonValue document = read_json(files[i]);
    std::shared_ptr<const glr::CompiledGrammar> grammar;
    const std::string name = files[i].stem().string();
    INFO(name);
    try {
      grammar = glr::CompiledGrammar::compile(
          json_schema::compile_json_schema(*document.find("schema"), files[i].stem().string()));
    } catch (const Error& e) {
      if (refused.count(name) == 0) FAIL_CHECK("not compiled: " << e.what());
      continue;
    }
    CHECK(refused.count(name) == 0);
    ++compiled;
    for (const JsonValue& instance : document.find("valid")->items) {
      ++valid;
      valid_passed += force(grammar, json_schema::to_json_text(instance)).empty();
    }
    for (const JsonValue& instance : document.find("invalid")->items) {
      ++invalid;
      INFO(files[i].filename().string() << ": " << json_schema::to_json_text(instance));
      CHECK(force(grammar, json_schema::to_json_text(instance)) != "");
    }
  }
  std::cout << "MaskBench subset: " << compiled << " of " << subset << " schemas compiled; valid "
            << valid_passed << "/" << valid << " accepted, " << invalid << " invalid refused\n";
  CHECK(compiled == subset - refused.size());
  CHECK(valid > 0);
  CHECK(valid_passed == valid);
  CHECK(invalid > 0);
}

}  // namespace
}  // namespace glrmask
