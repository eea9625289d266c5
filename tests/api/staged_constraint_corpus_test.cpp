// The library's kLazy and kStaged constraints on real schemas: every 50th MaskBench dev schema
// (name order), the first valid instance, at most 40 teacher-forced steps with Llama-3, each
// step's bitmask row equal to a kWfa constraint's (the wfa equals the oracle on these steps:
// tests/mask/lazy_walk_engine_corpus_test.cpp and the json_schema study). The staged constraint
// answers its first steps from the lazy engine and, once the test has waited for its background
// build, the rest from the wfa's automata: both halves are compared.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "api/src/constraint_impl.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "tests/support/test_support.h"

using namespace glrmask;

TEST_CASE("api: lazy and staged constraints give the wfa's rows on MaskBench schemas (Llama-3)") {
  if (!testing::require_data_dir("staged_constraint_corpus_test (MaskBench)"))
    return testing::skip_test_case();
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  const Tokenizer tokenizer = Tokenizer::load("llama3");
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  constexpr std::size_t kSwitchAt = 10, kMaxSteps = 40;
  std::size_t schemas = 0, steps_before_wait = 0, steps_after_wait = 0;
  for (std::size_t i = 0; i < files.size(); i += 50) {
    INFO(files[i].filename().string());
    const json_schema::JsonValue document =
        json_schema::parse_json(testing::read_file(files[i]), files[i].string());
    const json_schema::JsonValue* valid = document.find("valid");
    if (valid == nullptr || valid->items.empty()) continue;
    const std::string schema = json_schema::to_json_text(*document.find("schema"));
    auto compile = [&](Engine engine) {
      return Constraint::from_json_schema(schema, tokenizer, {}, {.engine = engine},
                                          files[i].stem().string());
    };
    std::optional<Constraint> wfa;
    try {
      wfa = compile(Engine::kWfa);
    } catch (const Error&) {
      continue;  // one of the few refused schemas (docs/json_schema.md)
    }
    const Constraint lazy = compile(Engine::kLazy), staged = compile(Engine::kStaged);
    Matcher expected(*wfa), by_lazy(lazy), by_staged(staged);
    std::vector<std::int32_t> row(tokenizer.bitmask_words()), want(row.size());
    const std::vector<std::int32_t> tokens =
        tokenizer.encode(json_schema::to_json_text(valid->items[0]));
    for (std::size_t step = 0; step <= std::min(tokens.size(), kMaxSteps); ++step) {
      INFO("step " << step);
      if (step == kSwitchAt) {
        REQUIRE(staged.impl().staged_build->wait() != nullptr);
      }
      expected.fill_next_token_bitmask(want);
      by_lazy.fill_next_token_bitmask(row);
      REQUIRE(row == want);
      by_staged.fill_next_token_bitmask(row);
      REQUIRE(row == want);
      ++(step < kSwitchAt ? steps_before_wait : steps_after_wait);
      if (step == tokens.size()) break;
      for (Matcher* m : {&expected, &by_lazy, &by_staged}) REQUIRE(m->accept_token(tokens[step]));
    }
    ++schemas;
  }
  CHECK(schemas >= 4);
  CHECK(steps_before_wait >= 30);
  CHECK(steps_after_wait >= 30);
}
