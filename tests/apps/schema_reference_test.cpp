// JSON Schema constraints against independent references, through the `glrmask` program:
//  - `glrmask schema2lark` prints a grammar that Lark itself (Debian's python3-lark, Earley with
//    the dynamic lexer) loads, and that parses every valid fixture instance and none of the
//    invalid ones;
//  - random walks of `glrmask generate --json-schema` (spanner engine, equal to the oracle) that
//    end by EOS are JSON documents that python3-jsonschema validates against the schema.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "lib/json_schema/value.h"
#include "tests/support/grammar_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;
using testing::run_command;

void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(testing::fixtures_dir() / "json_schema"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Writes the "schema" member of a fixture to its own file, as `--json-schema` reads it.
fs::path schema_file(const fs::path& fixture, const fs::path& scratch) {
  const json_schema::JsonValue document =
      json_schema::parse_json(testing::read_file(fixture), fixture.string());
  const fs::path path = scratch / (fixture.stem().string() + ".schema.json");
  write(path, json_schema::to_json_text(*document.find("schema")));
  return path;
}

constexpr const char* kLarkCheck = R"PY(
import json, sys
from lark import Lark
grammar = open(sys.argv[1], encoding="utf-8").read()
fixture = json.load(open(sys.argv[2], encoding="utf-8"))
parser = Lark(grammar, parser="earley", lexer="dynamic", start="start")
def parses(value):
    try:
        parser.parse(json.dumps(value, ensure_ascii=False))
        return True
    except Exception:
        return False
bad = [("valid", v) for v in fixture["valid"] if not parses(v)]
bad += [("invalid", v) for v in fixture["invalid"] if parses(v)]
for kind, value in bad:
    print("WRONG", kind, json.dumps(value, ensure_ascii=False))
print("checked", len(fixture["valid"]) + len(fixture["invalid"]))
)PY";

TEST_CASE(
    "schema2lark output is accepted by Lark and parses exactly the fixture's valid instances") {
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path script = scratch.path / "lark_check.py";
  write(script, kLarkCheck);
  for (const fs::path& fixture : fixtures()) {
    INFO(fixture.filename().string());
    const fs::path lark = scratch.path / (fixture.stem().string() + ".lark");
    const auto printed =
        run_command(testing::shell_quoted(testing::glrmask_binary()) + " schema2lark " +
                    testing::shell_quoted(schema_file(fixture, scratch.path)) + " >" +
                    testing::shell_quoted(lark));
    REQUIRE(printed.exit_code == 0);
    const auto checked =
        run_command(*python + " " + testing::shell_quoted(script) + " " +
                    testing::shell_quoted(lark) + " " + testing::shell_quoted(fixture));
    INFO(checked.output);
    CHECK(checked.exit_code == 0);
    CHECK(checked.output.find("WRONG") == std::string::npos);
    CHECK(checked.output.find("checked") != std::string::npos);
  }
}

constexpr const char* kValidate = R"PY(
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1], encoding="utf-8"))
cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
validator = cls(schema)
eos = 0
for line in open(sys.argv[2], encoding="utf-8"):
    walk = json.loads(line)
    if walk["end"] != "eos":
        continue
    eos += 1
    try:
        validator.validate(json.loads(walk["text"]))
    except Exception as e:
        print("INVALID", repr(walk["text"][:300]), str(e).splitlines()[0])
print("eos", eos)
)PY";

TEST_CASE("random walks under each fixture schema validate with python3-jsonschema") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const std::string python = "/usr/bin/python3";
  if (run_command(python + " -c 'import jsonschema' 2>/dev/null").exit_code != 0) {
    std::cerr << "\n*** WARNING: /usr/bin/python3 has no jsonschema module (Debian: "
                 "python3-jsonschema); the random-walk validation is skipped ***\n";
    return;
  }
  testing::ScratchDir scratch;
  const fs::path script = scratch.path / "validate.py";
  write(script, kValidate);
  std::size_t completed = 0;
  for (const fs::path& fixture : fixtures()) {
    INFO(fixture.filename().string());
    const fs::path schema = schema_file(fixture, scratch.path);
    const fs::path walks = scratch.path / (fixture.stem().string() + ".jsonl");
    const auto generated =
        run_command(testing::shell_quoted(testing::glrmask_binary()) + " generate --json-schema " +
                    testing::shell_quoted(schema) +
                    " --tokenizer llama3 --seed 7 --count 12 --max-tokens 120 --eos-bias 0.5 "
                    "--max-token-bytes 4 --engine spanner --json-lines >" +
                    testing::shell_quoted(walks));
    REQUIRE(generated.exit_code == 0);
    const auto checked =
        run_command(python + " " + testing::shell_quoted(script) + " " +
                    testing::shell_quoted(schema) + " " + testing::shell_quoted(walks));
    INFO(checked.output);
    REQUIRE(checked.exit_code == 0);
    CHECK(checked.output.find("INVALID") == std::string::npos);
    const std::size_t at = checked.output.rfind("eos ");
    REQUIRE(at != std::string::npos);
    completed += std::stoul(checked.output.substr(at + 4));
  }
  std::cout << "random walks ended by EOS and validated: " << completed << "\n";
  CHECK(completed >= 20);
}

}  // namespace
}  // namespace glrmask
