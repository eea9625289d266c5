// Findings of the review of the JSON Schema compiler (issue #24), each on a small schema: the
// compiled grammar is run on instances just inside and just outside the schema, and its verdict
// must be python3-jsonschema's (`jsonschema.validate(instance, schema,
// format_checker=jsonschema.FormatChecker())`, instance parsed by Python's json, which keeps the
// last of repeated keys). The expected verdicts below were checked that way when written; where
// the grammar refuses a valid spelling by a documented restriction, the comment says so.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"

using namespace glrmask;
using json_schema::compile_json_schema_text;
using json_schema::SchemaOptions;

namespace {

std::shared_ptr<const glr::CompiledGrammar> compile(const std::string& schema,
                                                    const SchemaOptions& options = {}) {
  return glr::CompiledGrammar::compile(compile_json_schema_text(schema, "s.json", options));
}

// Whether the grammar accepts `text` as a whole (byte by byte, then end of input).
bool accepts(const std::shared_ptr<const glr::CompiledGrammar>& grammar, const std::string& text) {
  glr::Session session(grammar);
  return session.try_commit_bytes(text) && session.is_accepting();
}

}  // namespace

TEST_CASE("minProperties does not count a repeated extra key twice") {
  // python: {"x": 1, "x": 2} is {"x": 2}, one member.
  const auto declared =
      compile(R"({"type": "object", "properties": {"a": {}}, "minProperties": 2})");
  CHECK(accepts(declared, R"({"a": 1, "x": 2})"));          // valid
  CHECK(accepts(declared, R"({"a": 1, "x": 1, "x": 2})"));  // valid
  CHECK_FALSE(accepts(declared, R"({"x": 1, "x": 2})"));    // invalid
  CHECK_FALSE(accepts(declared, R"({"a": 1})"));            // invalid
  CHECK_FALSE(accepts(declared, R"({"x": 1})"));            // invalid
  // Two undeclared keys count as two when their initials increase (y after x), so they differ.
  CHECK(accepts(declared, R"({"x": 1, "y": 2})"));  // valid
  // Valid, refused: the second initial is not later than the first (documented restriction).
  CHECK_FALSE(accepts(declared, R"({"y": 1, "x": 2})"));
  CHECK_FALSE(accepts(declared, R"({"x": 1, "x2": 2})"));
  // An escaped initial may spell any character, so it counts only as the one extra key.
  CHECK_FALSE(accepts(declared, R"({"\u0078": 1, "y": 2})"));

  // Undeclared keys only: counted by initials, 0-9 A-Z a-z in that order.
  const std::string open = R"({"type": "object", "minProperties": 3})";
  const auto by_initials = compile(open);
  CHECK(accepts(by_initials, R"({"a": 1, "b": 2, "c": 3})"));           // valid
  CHECK(accepts(by_initials, R"({"1": 1, "B": 2, "b": 3})"));           // valid
  CHECK(accepts(by_initials, R"({"a": 1, "a": 2, "b": 3, "c": 4})"));   // valid: a, b, c
  CHECK_FALSE(accepts(by_initials, R"({"a": 1, "a": 2, "a": 3})"));     // invalid: one key
  CHECK_FALSE(accepts(by_initials, R"({"ab": 1, "ac": 2, "ad": 3})"));  // valid, refused
  CHECK_FALSE(accepts(by_initials, R"({"a": 1, "b": 2})"));             // invalid

  // Above the chain's state budget (2^6 tracked names x counts x initials): refused, naming the
  // keyword.
  const std::string large =
      R"({"type": "object", "properties": {"p1": {}, "p2": {}, "p3": {}, "p4": {}, "p5": {},)"
      R"( "p6": {}}, "minProperties": 8, "maxProperties": 12})";
  SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  CHECK_THROWS_WITH(compile(large, any_order),
                    Catch::Contains("s.json#/minProperties") &&
                        Catch::Contains("may repeat one another") &&
                        Catch::Contains("JsonOptions::lenient ignores it"));
  SchemaOptions lenient = any_order;
  lenient.lenient = true;
  const auto over = compile(large, lenient);  // over-approximation: every occurrence counts
  CHECK(accepts(over, R"({"p1": 1, "a": 1, "a": 2, "a": 3, "a": 4, "a": 5, "a": 6, "a": 7})"));
  CHECK_FALSE(accepts(over, R"({"p1": 1, "a": 1})"));

  // maxProperties counts occurrences: stricter, never wider.
  const auto bounded = compile(R"({"type": "object", "minProperties": 1, "maxProperties": 2})");
  CHECK(accepts(bounded, R"({"x": 1, "y": 2})"));                // valid
  CHECK_FALSE(accepts(bounded, "{}"));                           // invalid
  CHECK_FALSE(accepts(bounded, R"({"x": 1, "y": 2, "z": 3})"));  // invalid
}

TEST_CASE("under not only exact formats are complemented") {
  // python: "a@b" is an email, so {"not": {"format": "email"}} rejects it; the email regex is a
  // subset of the format, so its complement would accept it.
  const std::string email = R"({"not": {"format": "email"}})";
  CHECK_THROWS_WITH(compile(email), Catch::Contains("s.json#/not/format") &&
                                        Catch::Contains("the complement of format \"email\"") &&
                                        Catch::Contains("JsonOptions::lenient ignores it"));
  for (const char* format : {"hostname", "time", "date-time", "regex"}) {
    INFO(format);
    CHECK_THROWS_WITH(compile(std::string(R"({"not": {"format": ")") + format + "\"}}"),
                      Catch::Contains("s.json#/not/format"));
  }
  SchemaOptions lenient;
  lenient.lenient = true;
  CHECK(accepts(compile(email, lenient), R"("a@b")"));  // the documented over-approximation

  // date is exact: its complement is every other value.
  const auto not_date = compile(R"({"not": {"format": "date"}})");
  CHECK(accepts(not_date, R"("2020-02-30")"));        // valid
  CHECK(accepts(not_date, R"("a@b")"));               // valid
  CHECK_FALSE(accepts(not_date, R"("2020-02-29")"));  // invalid
  // So is uri (RFC 3986).
  const auto not_uri = compile(R"({"not": {"format": "uri"}})");
  CHECK(accepts(not_uri, R"("abc")"));                 // valid: a reference, not a URI
  CHECK(accepts(not_uri, R"("http://a b")"));          // valid
  CHECK_FALSE(accepts(not_uri, R"("http://a/b?c")"));  // invalid
}

TEST_CASE("draft-4 allOf bounds keep each part's exclusive flag") {
  const std::string draft4 = R"("$schema": "http://json-schema.org/draft-04/schema#")";
  const auto lower = compile(
      "{" + draft4 + R"(, "allOf": [{"minimum": 3, "exclusiveMinimum": true}, {"minimum": 5}]})");
  CHECK(accepts(lower, "5"));          // valid
  CHECK(accepts(lower, "6"));          // valid
  CHECK_FALSE(accepts(lower, "4.5"));  // invalid
  CHECK_FALSE(accepts(lower, "3"));    // invalid
  // Different flags at one value: the exclusive one wins, in either order.
  const auto upper = compile(
      "{" + draft4 + R"(, "allOf": [{"maximum": 10, "exclusiveMaximum": true}, {"maximum": 10}]})");
  CHECK(accepts(upper, "9.5"));       // valid
  CHECK_FALSE(accepts(upper, "10"));  // invalid
  const auto equal = compile(
      "{" + draft4 +
      R"(, "allOf": [{"minimum": 5, "exclusiveMinimum": false}, {"minimum": 5, "exclusiveMinimum": true}]})");
  CHECK(accepts(equal, "5.5"));      // valid
  CHECK_FALSE(accepts(equal, "5"));  // invalid
  // The inclusive bound is the tighter one here.
  const auto inclusive = compile(
      "{" + draft4 +
      R"(, "allOf": [{"minimum": 5, "exclusiveMinimum": false}, {"minimum": 3, "exclusiveMinimum": true}]})");
  CHECK(accepts(inclusive, "5"));        // valid
  CHECK_FALSE(accepts(inclusive, "4"));  // invalid
}

TEST_CASE("string constraints with no common string name their schema") {
  // The pattern and the format share no string: the string alternative is dropped, the others
  // stay (python: 5 valid, "2020-01-01" and "abc" invalid).
  const auto mixed =
      compile(R"({"type": ["string", "integer"], "pattern": "^[a-z]+$", "format": "date"})");
  CHECK(accepts(mixed, "5"));
  CHECK_FALSE(accepts(mixed, R"("2020-01-01")"));
  CHECK_FALSE(accepts(mixed, R"("abc")"));
  // Nothing else left: the error names the file and the pointer of the string's schema.
  CHECK_THROWS_WITH(
      compile(
          R"({"type": "object", "properties": {"d": {"type": "string", "pattern": "^[a-z]+$", "format": "date"}},
                  "required": ["d"]})"),
      Catch::Contains("s.json#: the start symbol") && Catch::Contains("(s.json#/properties/d)"));
}

TEST_CASE("the warning about a large object constant names the constant") {
  SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  const GrammarModel grammar = compile_json_schema_text(
      R"({"properties": {"p": {"const": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7,
                                          "h": 8, "i": 9}}}})",
      "s.json", any_order);
  REQUIRE(grammar.warnings().size() == 1);
  CHECK(grammar.warnings()[0].where.file == "s.json#/properties/p/const");
  CHECK_THAT(grammar.warnings()[0].message, Catch::Contains("more than 8 members"));
}

TEST_CASE("draft-4 integer constants are spelled without a fraction") {
  // Found by random walks under MaskBench's Github_hard---o41300 (scripts/json_schema_walks.py):
  // {"type": "integer", "enum": [6, 12]} in draft 4 allowed 6.0, which draft 4's integer refuses.
  const std::string draft4 = R"("$schema": "http://json-schema.org/draft-04/schema#")";
  const auto integer_enum = compile("{" + draft4 + R"(, "type": "integer", "enum": [6, 12, 0]})");
  CHECK(accepts(integer_enum, "6"));            // valid
  CHECK(accepts(integer_enum, "0"));            // valid
  CHECK(accepts(integer_enum, "-0"));           // valid (Python reads -0 as the integer 0)
  CHECK_FALSE(accepts(integer_enum, "6.0"));    // invalid
  CHECK_FALSE(accepts(integer_enum, "12.00"));  // invalid
  CHECK_FALSE(accepts(integer_enum, "0.0"));    // invalid
  CHECK_FALSE(accepts(integer_enum, "7"));      // invalid

  // Without `integer` the enum compares values: 6.0 equals 6.
  const auto number_enum = compile("{" + draft4 + R"(, "enum": [6, 12]})");
  CHECK(accepts(number_enum, "6.0"));  // valid
  CHECK(accepts(number_enum, "12"));   // valid
  const auto typed_number = compile("{" + draft4 + R"(, "type": "number", "enum": [6]})");
  CHECK(accepts(typed_number, "6.00"));  // valid

  // From draft 6 on 6.0 is an integer.
  const auto draft7 = compile(R"({"type": "integer", "enum": [6, 12]})");
  CHECK(accepts(draft7, "6.0"));  // valid
  CHECK(accepts(draft7, "12"));   // valid

  // Inside a constant the nested schema is not at hand: draft 4 spells nested integers plainly.
  const auto nested = compile(
      "{" + draft4 + R"(, "type": "array", "items": {"type": "integer"}, "enum": [[6, 12]]})");
  CHECK(accepts(nested, "[6, 12]"));          // valid
  CHECK_FALSE(accepts(nested, "[6.0, 12]"));  // invalid
  const auto finite_items = compile("{" + draft4 +
                                    R"(, "type": "array", "uniqueItems": true,
        "items": {"type": "integer", "enum": [1, 2]}})");
  CHECK(accepts(finite_items, "[1, 2]"));        // valid
  CHECK_FALSE(accepts(finite_items, "[1.0]"));   // invalid
  CHECK_FALSE(accepts(finite_items, "[1, 1]"));  // invalid
}
