// The JSON Schema / regex / any-JSON grammar sources of the `glrmask` commands: `check`
// verdicts, `schema2lark`, `stats`, and errors (exit code 2, message naming the place).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/test_support.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using testing::run_command;

testing::CommandResult glrmask(const std::string& arguments) {
  return run_command("'" + testing::glrmask_binary().string() + "' " + arguments);
}

TEST_CASE("check --json-schema: every positional argument is an instance") {
  testing::ScratchDir scratch;
  const fs::path schema = scratch.write(
      "s.json", R"({"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}},
                    "required": ["n"], "additionalProperties": false})");
  const fs::path good = scratch.write("good.json", R"({"n": 7})");
  const fs::path bad = scratch.write("bad.json", R"({"n": 10})");
  const fs::path compact = scratch.write("compact.json", R"({"n":7})");
  auto result = glrmask("check --json-schema " + schema.string() + " " + good.string());
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("good.json: accepted"));
  result = glrmask("check --json-schema " + schema.string() + " " + good.string() + " " +
                   bad.string() + " " + compact.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Contains("bad.json: rejected") && Contains("compact.json: rejected") &&
                                Contains("1 of 3 accepted"));
  result = glrmask("check --json-schema=" + schema.string() + " --json-whitespace compact " +
                   compact.string());
  CHECK(result.exit_code == 0);
}

TEST_CASE(
    "mask and compile keep --json-property-order, and an artifact of the other order names it") {
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path schema = scratch.write("s.json", R"({"type": "object", "required": ["a", "b"],
                                  "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}})");
  const fs::path reordered = scratch.write("reordered.json", R"({"b": 1, "a": 2})");
  const std::string mask =
      "mask --json-schema " + schema.string() + " --tokenizer llama3 --input " + reordered.string();
  auto result = glrmask(mask);
  CHECK(result.exit_code == 1);
  result = glrmask(mask + " --json-property-order any");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("properties in any order") && Contains("result       ok"));
  const fs::path artifact = scratch.path / "any.glrmask";
  result = glrmask("compile --json-schema " + schema.string() +
                   " --json-property-order any --tokenizer llama3 -o " + artifact.string());
  REQUIRE(result.exit_code == 0);
  CHECK(glrmask(mask + " --json-property-order any --artifact " + artifact.string()).exit_code ==
        0);
  result = glrmask(mask + " --artifact " + artifact.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-property-order"));
}

TEST_CASE("check --json-schema-ref registers a document, --json-format and --json-schema-draft") {
  testing::ScratchDir scratch;
  const fs::path schema = scratch.write(
      "s.json", R"({"type": "object", "required": ["n", "d"], "additionalProperties": false,
                    "properties": {"n": {"$ref": "https://example.com/n.json", "maximum": 3},
                                   "d": {"type": "string", "format": "date"}}})");
  const fs::path document = scratch.write("n.json", R"({"type": "integer"})");
  const fs::path good = scratch.write("good.json", R"({"n": 2, "d": "2024-05-06"})");
  const fs::path big = scratch.write("big.json", R"({"n": 5, "d": "2024-05-06"})");
  const fs::path undated = scratch.write("undated.json", R"({"n": 2, "d": "x"})");
  const std::string ref = " --json-schema-ref https://example.com/n.json=" + document.string();
  const std::string check = "check --json-schema " + schema.string();
  auto result = glrmask(check + " " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("https://example.com/n.json") && Contains("not registered"));
  result = glrmask(check + ref + " " + good.string() + " " + big.string() + " " + undated.string());
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Contains("good.json: accepted") && Contains("big.json: rejected") &&
                                Contains("undated.json: rejected"));
  result = glrmask(check + ref + " --json-format annotation " + undated.string());
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("undated.json: accepted"));
  // Draft 7 ignores the `maximum` beside the `$ref`.
  result = glrmask(check + ref + " --json-schema-draft 7 " + big.string());
  CHECK(result.exit_code == 0);
  result = glrmask("schema2lark " + schema.string() + ref + " --json-format=annotation");
  CHECK(result.exit_code == 0);
  // Errors name the option.
  result = glrmask(check + " --json-schema-ref https://example.com/n.json " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-schema-ref") && Contains("URI=FILE"));
  result = glrmask(check + " --json-schema-ref u=" + (scratch.path / "missing.json").string() +
                   " " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-schema-ref") && Contains("missing.json"));
  result = glrmask(check + ref + " --json-schema-draft 8 " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-schema-draft") && Contains("2019-09"));
  result = glrmask(check + ref + " --json-format maybe " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-format"));
  result = glrmask("check --any-json --json-format annotation " + good.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-format needs --json-schema"));
}

TEST_CASE("an artifact keeps the registered documents, the format mode and the default draft") {
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path schema = scratch.write(
      "s.json", R"({"type": "array", "items": {"$ref": "https://example.com/d.json"}})");
  const fs::path document = scratch.write("d.json", R"({"type": "string", "format": "date"})");
  const fs::path other = scratch.write("other.json", R"({"type": "string"})");
  const fs::path instance = scratch.write("i.json", R"(["x"])");
  const std::string ref = " --json-schema-ref https://example.com/d.json=";
  const std::string mask = "mask --json-schema " + schema.string() +
                           " --tokenizer llama3 --input " + instance.string() + ref;
  const fs::path artifact = scratch.path / "annotation.glrmask";
  auto result = glrmask("compile --json-schema " + schema.string() + ref + document.string() +
                        " --json-format annotation --tokenizer llama3 -o " + artifact.string());
  REQUIRE(result.exit_code == 0);
  result = glrmask(mask + document.string() + " --json-format annotation --artifact " +
                   artifact.string());
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("format as annotation") && Contains("1 registered document"));
  result = glrmask(mask + document.string() + " --artifact " + artifact.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-format"));
  result =
      glrmask(mask + other.string() + " --json-format annotation --artifact " + artifact.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output,
             Contains("--json-schema-ref") && Contains("https://example.com/d.json"));
  result =
      glrmask(mask + document.string() +
              " --json-format annotation --json-schema-draft 7 --artifact " + artifact.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-schema-draft"));
}

TEST_CASE("check --regex and --any-json") {
  testing::ScratchDir scratch;
  const fs::path date = scratch.write("date.txt", "2024-05-06");
  const fs::path word = scratch.write("word.txt", "hello");
  auto result =
      glrmask("check --regex '[0-9]{4}-[0-9]{2}-[0-9]{2}' " + date.string() + " " + word.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Contains("date.txt: accepted") && Contains("word.txt: rejected"));
  const fs::path document = scratch.write("doc.json", "{\n  \"a\": [1, 2.5, null]\n}\n");
  CHECK(glrmask("check --any-json " + document.string()).exit_code == 1);
  CHECK(glrmask("check --any-json --json-whitespace flexible " + document.string()).exit_code == 0);
}

TEST_CASE("schema2lark prints rules and terminals, and stats reads a schema") {
  testing::ScratchDir scratch;
  const fs::path schema =
      scratch.write("s.json", R"({"type": "array", "items": {"enum": ["x", "y"]}, "maxItems": 2})");
  auto result = glrmask("schema2lark " + schema.string());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("start:") && Contains(R"(/"x"/)") && Contains("LSQB"));
  result = glrmask("stats --json-schema " + schema.string());
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("lexer DFA"));
}

// Reports name the grammar they ran: with --json-schema that is the schema file (it was once an
// empty `grammar` line in stats and `"grammar":""` in mask --json).
TEST_CASE("stats, mask --json and compile name the schema file, the regex or any JSON") {
  testing::ScratchDir scratch;
  const fs::path schema = scratch.write("named_schema.json", R"({"type": "boolean"})");
  auto result = glrmask("stats --json-schema " + schema.string());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("grammar           " + schema.string() + "\n"));
  result = glrmask("stats --regex 'a+'");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("grammar           --regex a+\n"));
  result = glrmask("stats --any-json");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("grammar           --any-json\n"));
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  const fs::path instance = scratch.write("instance.json", "true");
  result = glrmask("mask --json-schema " + schema.string() + " --tokenizer llama3 --input " +
                   instance.string() + " --json");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("\"grammar\":\"" + schema.string() + "\""));
  result = glrmask("compile --json-schema " + schema.string() + " --tokenizer llama3 -o " +
                   (scratch.path / "a.glrmask").string());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Contains("grammar              " + schema.string() + " (policy"));
}

TEST_CASE("bad schemas and bad option combinations exit 2 naming the place") {
  testing::ScratchDir scratch;
  const fs::path unsupported = scratch.write(
      "u.json", R"({"properties": {"a": {"not": {"propertyNames": {"maxLength": 3}}}}})");
  const fs::path instance = scratch.write("i.json", R"({"a": 1})");
  auto result = glrmask("check --json-schema " + unsupported.string() + " " + instance.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("u.json#/properties/a/not"));
  result = glrmask("check --json-schema " + unsupported.string() + " --json-schema-lenient " +
                   instance.string());
  CHECK(result.exit_code == 0);
  result = glrmask("schema2lark " + scratch.write("m.json", "{\"type\": ").string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("m.json") && Contains("invalid JSON"));
  result = glrmask("check --regex a --any-json " + instance.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("only one of"));
  result = glrmask("check --regex a --json-whitespace compact " + instance.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--json-whitespace"));
  result = glrmask("check --any-json --json-whitespace tabs " + instance.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("tabs"));
  result = glrmask("check --any-json --start value " + instance.string());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Contains("--start"));
}

}  // namespace
}  // namespace glrmask
