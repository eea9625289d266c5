// Constrained strings accept the JSON spellings of every allowed value (lib/json_schema/regex.h):
// a character as itself, as \uXXXX in either case, a surrogate pair for one character outside the
// Basic Multilingual Plane, and the short escapes; lengths count characters after decoding, and
// a lone surrogate (not a character) is refused. Each case holds instances whose decoded value is
// inside and outside the schema (verdicts of python3-jsonschema on json.loads of the text), and
// runs under both StringSpellings: kEvery takes every valid instance, kEncoders (the default)
// every valid one but those that write a printable ASCII character as \uXXXX.
// libstdc++'s <regex> trips GCC 12's -Wmaybe-uninitialized under the sanitizers (header false
// positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/json_schema/compiler.h"

using namespace glrmask;

namespace {

// Whether `text` writes a character from U+0020 to U+007E as a \u escape.
bool escapes_printable_ascii(const std::string& text) {
  static const std::regex kEscape(R"(\\u00[2-7][0-9a-fA-F])");
  for (std::sregex_iterator it(text.begin(), text.end(), kEscape), end; it != end; ++it) {
    const std::string hex = it->str().substr(2);
    if (std::stoi(hex, nullptr, 16) <= 0x7E) return true;
  }
  return false;
}

void check_escape_verdicts(const std::string& schema,
                           const std::vector<std::pair<std::string, bool>>& verdicts,
                           json_schema::SchemaOptions options = {}) {
  for (const auto spellings :
       {json_schema::StringSpellings::kEvery, json_schema::StringSpellings::kEncoders}) {
    options.string_spellings = spellings;
    const auto grammar = glr::CompiledGrammar::compile(
        json_schema::compile_json_schema_text(schema, "s.json", options));
    for (const auto& [instance, valid] : verdicts) {
      glr::Session session(grammar);
      const bool accepted = session.try_commit_bytes(instance) && session.is_accepting();
      const bool expected = valid && (spellings == json_schema::StringSpellings::kEvery ||
                                      !escapes_printable_ascii(instance));
      INFO(schema << "\n  instance " << instance << "\n  every spelling "
                  << (spellings == json_schema::StringSpellings::kEvery));
      CHECK(accepted == expected);
    }
  }
}

}  // namespace

TEST_CASE("const and enum strings in every spelling") {
  check_escape_verdicts(R"({"const": "\u03bc/\""})", {{"\"\xce\xbc/\\\"\"", true},
                                                      {R"("\u03bc\/\"")", true},
                                                      {R"("\u03BC\u002f\u0022")", true},
                                                      {R"("\u03bd/\"")", false},
                                                      {R"("\u03bc/")", false}});
  check_escape_verdicts(R"({"enum": ["a\tb", "\ud83d\udca9"]})", {{R"("a\tb")", true},
                                                                  {R"("a\u0009b")", true},
                                                                  {"\"\xf0\x9f\x92\xa9\"", true},
                                                                  {R"("\ud83d\udca9")", true},
                                                                  {R"("\uD83D\uDCA9")", true},
                                                                  {R"("\ud83d\udcaa")", false},
                                                                  {R"("\ud83d")", false},
                                                                  {R"("a b")", false}});
}

TEST_CASE("lengths count decoded characters, a surrogate pair as one") {
  check_escape_verdicts(R"({"type": "string", "minLength": 2, "maxLength": 2})",
                        {{R"("\ud83d\udca9x")", true},
                         {R"("\u0041\u0042")", true},
                         {R"("\ud83d\udca9")", false},
                         {R"("\u0041\u0042\u0043")", false},
                         {R"("\ud83dx")", false}});
}

TEST_CASE("patterns, formats and property names see the decoded string") {
  check_escape_verdicts(R"({"type": "string", "pattern": "^[a-c]+$"})",
                        {{R"("\u0061b\u0063")", true}, {R"("\u0064")", false}});
  check_escape_verdicts(R"({"type": "string", "format": "date"})",
                        {{R"("2024-02-29")", true},
                         {R"("\u0032024-02-29")", true},
                         {R"("2023-02-29")", false},
                         {R"("\u0032023-02-29")", false}});
  check_escape_verdicts(R"({"type": "object", "properties": {"foo\tbar": {"type": "integer"},
                                                            "\u00e1": {"type": "string"}},
                             "additionalProperties": false})",
                        {{R"({"foo\tbar": 1})", true},
                         {R"({"foo\u0009bar": 1})", true},
                         {R"({"foo\u0009bar": "x"})", false},
                         {R"({"\u00e1": "x"})", true},
                         {R"({"\u00E1": 1})", false},
                         {R"({"\u00e2": "x"})", false}});
  // Exclusions see every spelling too: "\u0061" is "a".
  check_escape_verdicts(R"({"type": "string", "not": {"enum": ["a"]}})",
                        {{R"("b")", true}, {R"("\u0061")", false}, {R"("a")", false}});
}

TEST_CASE("format as an annotation asserts nothing") {
  json_schema::SchemaOptions annotation;
  annotation.assert_format = false;
  check_escape_verdicts(R"({"type": "string", "format": "date"})", {{R"("x")", true}, {"1", false}},
                        annotation);
  check_escape_verdicts(R"({"type": "string", "format": "date"})",
                        {{R"("x")", false}, {R"("2024-01-01")", true}});
}

TEST_CASE("patterns: Unicode property classes and control letters") {
  // The suite's pattern.json and optional/ecmascript-regex.json cases.
  check_escape_verdicts(R"({"type": "string", "pattern": "^\\p{Letter}+$"})",
                        {{R"("Hello")", true},
                         {"\"\xcf\x80\"", true},
                         {R"("\u03c0")", true},
                         {R"("123")", false},
                         {R"("a1")", false}});
  check_escape_verdicts(R"({"type": "string", "pattern": "^\\p{digit}+$"})",
                        {{R"("42")", true}, {R"("\u09ea\u09e8")", true}, {R"("-%#")", false}});
  check_escape_verdicts(R"({"type": "string", "pattern": "^\\P{Lu}$"})",
                        {{R"("a")", true}, {R"("A")", false}});
  check_escape_verdicts(R"({"type": "string", "pattern": "^\\cC$"})",
                        {{R"("\u0003")", true}, {R"("\\cC")", false}});
  json_schema::SchemaOptions options;
  CHECK_THROWS_WITH(json_schema::compile_json_schema_text(
                        R"({"type": "string", "pattern": "\\p{Greek}"})", "s.json", options),
                    Catch::Matchers::Contains("pattern column 1: unknown Unicode property"));
}
