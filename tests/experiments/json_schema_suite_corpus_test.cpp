// The official JSON-Schema-Test-Suite (the data folder's jsonschema/test-suite) through the
// schema compiler (experiments/support/json_schema_suite.h; the report: `experiments/run
// json_schema_suite --size full`, docs/json_schema.md "The official test suite"). No invalid
// instance may be accepted in any spelling on any draft; the compiled groups and the valid
// instances accepted may not fall below what the compiler reached when this test last moved.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "experiments/support/json_schema_suite.h"
#include "lib/core/settings.h"
#include "lib/json_schema/formats.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using namespace glrmask::experiments;

namespace {

struct Floor {
  std::size_t passed_groups;  // compiled, or refused because no value satisfies the schema
  std::size_t valid_refused;  // (instance, spelling) pairs of compiled groups, at most
};

}  // namespace

TEST_CASE("JSON-Schema-Test-Suite: no invalid instance accepted, and the rates hold") {
  if (!testing::require_data_dir("the JSON-Schema-Test-Suite")) return testing::skip_test_case();
  const std::filesystem::path suite = data_dir() / "jsonschema" / "test-suite";
  SuiteRunOptions run;
  run.remotes = load_suite_remotes(suite);
  const std::map<std::string, Floor> floors = {
      {"draft4", {184, 0}},       {"draft6", {256, 0}},       {"draft7", {281, 0}},
      {"draft2019-09", {394, 0}}, {"draft2020-12", {403, 0}},
  };
  for (const std::string& draft : suite_drafts()) {
    std::size_t passed = 0, valid_refused = 0, invalid_accepted = 0;
    for (const SuiteGroup& group : load_suite_groups(suite, draft)) {
      const GroupOutcome outcome = run_suite_group(group, run);
      if (outcome.status != GroupStatus::kRefused) ++passed;
      valid_refused += outcome.valid_refused;
      invalid_accepted += outcome.invalid_accepted;
      for (std::size_t t = 0; t < outcome.accepted.size(); ++t)
        for (std::size_t s = 0; s < suite_spellings().size(); ++s)
          if (!group.tests[t].valid && outcome.accepted[t][s])
            FAIL_CHECK(group.file << ": " << group.description << ": " << group.tests[t].description
                                  << " (" << suite_spellings()[s].name << ") accepted");
    }
    INFO(draft << ": " << passed << " groups compiled or correctly refused, " << valid_refused
               << " valid spellings refused");
    CHECK(invalid_accepted == 0);
    CHECK(passed >= floors.at(draft).passed_groups);
    CHECK(valid_refused <= floors.at(draft).valid_refused);
  }
}

// The optional/format files with `format` asserted: a format the compiler enforces (formats.h)
// accepts no invalid string, and an exact one refuses no valid string. The annotations
// (idn-email, idn-hostname, unknown formats) are not checked.
TEST_CASE("JSON-Schema-Test-Suite formats: no invalid string accepted, exact formats complete") {
  if (!testing::require_data_dir("the JSON-Schema-Test-Suite")) return testing::skip_test_case();
  const std::filesystem::path suite = data_dir() / "jsonschema" / "test-suite";
  SuiteRunOptions run;
  std::size_t checked_formats = 0;
  for (const std::string& draft : suite_drafts()) {
    for (const SuiteGroup& group : load_format_groups(suite, draft)) {
      const std::string format = suite_group_format(group);
      if (!json_schema::format_regex(format)) continue;
      ++checked_formats;
      const GroupOutcome outcome = run_suite_group(group, run);
      INFO(group.file << ": " << group.description << " (" << outcome.reason << ")");
      REQUIRE(outcome.status == GroupStatus::kCompiled);
      CHECK(outcome.invalid_accepted == 0);
      if (json_schema::format_regex_is_exact(format)) CHECK(outcome.valid_refused == 0);
    }
  }
  // ipv6, uri-reference, iri, json-pointer, duration, uri-template, ... in the five drafts.
  CHECK(checked_formats >= 60);
}
