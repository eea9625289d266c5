// The language of each fixture schema against python3-jsonschema: the fixtures' own instances
// and a few thousand generated ones (tests/fixtures/json_schema/candidates.py: numbers around
// every bound and multiple, strings around every length and the fixture's pattern hints, members
// removed, added and reordered, values of other types), each labelled by Debian's
// python3-jsonschema with exact decimal numbers. Neither property order may accept an invalid
// candidate; under the any-order option every valid one must be accepted, except where its
// verdict went through a format the grammar writes as a documented subset (email, hostname, time,
// date-time, regex) or checks by its RFC where python3-jsonschema has no checker or another one
// (uri, iri, ipv6, json-pointer, ...: candidates.py's SUBSET_FORMATS). Under the default schema
// order a valid candidate may be refused (a reordering), but then any order accepts it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;
using json_schema::JsonValue;

struct Candidate {
  std::string text;
  bool valid = false;
  // The verdict went through a format the grammar writes as a documented subset or checks
  // differently from python3-jsonschema (candidates.py's SUBSET_FORMATS): a valid candidate may
  // be refused.
  bool format_subset = false;
};

bool accepts(const std::shared_ptr<const glr::CompiledGrammar>& grammar, const std::string& text) {
  glr::Session session(grammar, nullptr);
  return session.try_commit_bytes(text) && session.is_accepting();
}

bool have_jsonschema() {
  static const bool found =
      testing::run_command("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null").exit_code == 0;
  if (!found)
    std::cerr << "\n*** WARNING: /usr/bin/python3 has no jsonschema module (Debian: "
                 "python3-jsonschema); the schema language check is skipped ***\n";
  return found;
}

std::vector<Candidate> candidates(const fs::path& fixture, std::size_t limit) {
  const fs::path script = testing::fixtures_dir() / "json_schema" / "candidates.py";
  const auto result =
      testing::run_command("/usr/bin/python3 " + testing::shell_quoted(script) + " " +
                           testing::shell_quoted(fixture) + " --limit " + std::to_string(limit));
  INFO(result.output.substr(0, 2000));
  REQUIRE(result.exit_code == 0);
  std::vector<Candidate> out;
  std::istringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const JsonValue record = json_schema::parse_json(line, fixture.string());
    REQUIRE(record.find("text"));
    out.push_back({record.find("text")->string, record.find("valid")->boolean,
                   record.find("format_subset")->boolean});
  }
  return out;
}

// Compares one fixture's languages; returns the number of candidates checked.
std::size_t check_fixture(const fs::path& file, std::size_t limit) {
  const JsonValue fixture = json_schema::parse_json(testing::read_file(file), file.string());
  const JsonValue& schema = *fixture.find("schema");
  json_schema::SchemaOptions schema_order;
  json_schema::SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  const auto ordered = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema(schema, file.string(), schema_order));
  const auto unordered = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema(schema, file.string(), any_order));
  const std::vector<Candidate> list = candidates(file, limit);
  std::size_t valid = 0, wrong = 0;
  for (const Candidate& candidate : list) {
    valid += candidate.valid;
    const bool in_any_order = accepts(unordered, candidate.text);
    const bool in_schema_order = accepts(ordered, candidate.text);
    const bool complete = in_any_order || !candidate.valid || candidate.format_subset;
    const bool sound = (!in_any_order && !in_schema_order) || candidate.valid;
    const bool ok = complete && sound;
    if (!ok && ++wrong <= 8)
      FAIL_CHECK(file.filename().string()
                 << (candidate.valid ? " valid" : " invalid") << " instance " << candidate.text
                 << ": any order " << (in_any_order ? "accepts" : "refuses") << ", schema order "
                 << (in_schema_order ? "accepts" : "refuses"));
  }
  CHECK(wrong == 0);
  // The generated set must hold both kinds, or it tests nothing.
  CHECK(valid > 0);
  CHECK(valid < list.size());
  return list.size();
}

TEST_CASE("each fixture schema accepts exactly what python3-jsonschema validates") {
  if (!have_jsonschema()) return testing::skip_test_case();
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(testing::fixtures_dir() / "json_schema"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::size_t checked = 0;
  for (const fs::path& file : files) {
    INFO(file.filename().string());
    checked += check_fixture(file, 1500);
  }
  std::cout << "schema language: " << checked << " candidates of " << files.size()
            << " fixtures labelled by python3-jsonschema\n";
}

}  // namespace
}  // namespace glrmask
