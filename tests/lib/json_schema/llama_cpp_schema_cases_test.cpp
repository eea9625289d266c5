// The JSON Schema cases of llama.cpp's grammar tests (the data folder's grammars/llama.cpp/
// grammar_integration.json, kind "schema"): its strings were chosen for llama.cpp's own schema
// converter, which departs from the specification in places (no undeclared properties unless
// additionalProperties allows them; properties in schema order). Where the specification and the
// converter agree, glrmask must agree too; the departures are listed and checked to be exactly
// those the specification allows.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api/src/constraint_source.h"
#include "glr/incremental_recognizer.h"
#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"

namespace glrmask::json_schema {
namespace {

std::shared_ptr<const glr::IncrementalRecognizer> llama_cpp_schema_recognizer(
    const std::string& schema, bool lenient) {
  SourceOptions options;
  options.json.whitespace = JsonWhitespace::kFlexible;
  options.json.lenient = lenient;
  return std::make_shared<const glr::IncrementalRecognizer>(
      ConstraintSource::make("json_schema", schema, options, "case.json").compile());
}

}  // namespace

TEST_CASE("llama.cpp schema cases: passing strings accepted, failing strings refused") {
  if (!testing::require_data_dir("JSON Schema: llama.cpp's schema cases"))
    return testing::skip_test_case();
  const auto path = data_dir() / "grammars" / "llama.cpp" / "grammar_integration.json";
  const JsonValue cases = parse_json(testing::read_file(path), path.string());
  std::size_t schemas = 0;
  std::vector<std::string> differences;
  for (const JsonValue& c : cases.find("cases")->items) {
    if (c.find("kind")->string != "schema") continue;
    const std::string& description = c.find("description")->string;
    INFO(description);
    std::shared_ptr<const glr::IncrementalRecognizer> recognizer;
    try {
      recognizer = llama_cpp_schema_recognizer(c.find("schema")->string, false);
    } catch (const Error&) {
      // llama.cpp's converter ignores what it cannot enforce; lenient does the same.
      differences.push_back(description + ": refused, compared lenient");
      recognizer = llama_cpp_schema_recognizer(c.find("schema")->string, true);
    }
    ++schemas;
    for (const JsonValue& input : c.find("passing")->items) {
      if (!testing::verdict_of(recognizer, input.string).accepted)
        differences.push_back(description + ": passing refused: " + input.string);
    }
    for (const JsonValue& input : c.find("failing")->items) {
      if (testing::verdict_of(recognizer, input.string).accepted)
        differences.push_back(description + ": failing accepted: " + input.string);
    }
  }
  // Where llama.cpp's converter departs from the specification (its integers have at most 16
  // digits and no "-0"; a schema without "type" still constrains only arrays there; objects take
  // no undeclared property by default) and where glrmask refuses a keyword it cannot enforce
  // (uniqueItems over strings), and nothing else.
  const std::vector<std::string> expected = {
      "min 0: failing accepted: 100000000000000000000000000000000",
      "min 0: failing accepted: -0",
      "min 2: failing accepted: 12345678900000000",
      "integer: failing accepted: 12345678901234567  ",
      "min+max items: failing accepted: 1",
      "object properties: failing accepted: { \"number\": 1600, \"street_name\": "
      "\"Pennsylvania\", \"street_type\":\"Avenue\", \"direction\":\"NW\"}",
      "required props: refused, compared lenient",
  };
  CHECK(schemas == 33);
  CHECK(differences == expected);
}

}  // namespace glrmask::json_schema
