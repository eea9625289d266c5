// A tool-calling structural tag with Qwen3's vocabulary: two tools whose arguments are MaskBench
// schemas (Github_easy---o71308, an image id; Github_trivial---o9777, two booleans, one an enum;
// the project's own copies of them when the data folder is absent), triggered
// by "<tool_call>" as text and as Qwen3's <tool_call> token (151657, an added token that is not
// marked special). The wfa and the spanner equal the oracle at every teacher-forced step of
// a reply with free text and two calls (the trigger spelled by one token and by several); the
// token's text does not open a call where the token is the trigger.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "glrmask/glrmask.hpp"
#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "tests/support/test_support.h"

namespace glrmask::structural_tag_corpus_test {
namespace {

std::string maskbench_schema(const std::string& file, const std::string& fallback) {
  const std::filesystem::path path = data_dir() / "jsonschema" / "maskbench-dev" / file;
  if (!std::filesystem::exists(path)) return fallback;
  const json_schema::JsonValue document =
      json_schema::parse_json(testing::read_file(path), path.string());
  return json_schema::to_json_text(*document.find("schema"));
}

std::string tool_calls(bool token_trigger) {
  const std::string image =
      maskbench_schema("Github_easy---o71308.json",
                       R"({"type": "object", "properties": {"image_uuid": {"type": "string"}},
          "required": ["image_uuid"]})");
  const std::string job = maskbench_schema(
      "Github_trivial---o9777.json",
      R"({"type": "object", "properties": {"success": {"type": "boolean", "enum": [true]},
          "requiresJob": {"type": "boolean"}}})");
  const std::string open = token_trigger ? R"({"token": "<tool_call>"})" : R"("<tool_call>")";
  const auto tag = [&](const std::string& name, const std::string& schema) {
    return R"({"begin": [)" + open + R"(, "\n{\"name\": \")" + name +
           R"(\", \"arguments\": "], "content": {"type": "json_schema", "json_schema": )" + schema +
           R"(}, "end": "}\n</tool_call>"})";
  };
  return R"({"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": [)" + open +
         R"(], "tags": [)" + tag("upgrade_image", image) + ", " + tag("report_job", job) + "]}}";
}

}  // namespace

TEST_CASE("structural tags: tool calls with Qwen3, the wfa and the spanner equal the oracle") {
  if (!testing::require_tokenizer("qwen3")) return testing::skip_test_case();
  const Tokenizer tokenizer = Tokenizer::load("qwen3");
  const std::string call_image =
      "\n{\"name\": \"upgrade_image\", \"arguments\": {\"image_uuid\": \"4b1e-9\"}}\n</tool_call>";
  const std::string call_job =
      "\n{\"name\": \"report_job\", \"arguments\": {\"success\": true}}\n</tool_call>";
  const auto encode = [&](const std::string& text) { return tokenizer.encode(text); };
  const auto join = [](std::initializer_list<std::vector<std::int32_t>> parts) {
    std::vector<std::int32_t> ids;
    for (const auto& part : parts) ids.insert(ids.end(), part.begin(), part.end());
    return ids;
  };
  // The trigger as Qwen3 writes it (token 151657) and, in the text variant, spelled by pieces.
  const std::vector<std::int32_t> reply =
      join({encode("Ok \"x\" {y}. <tool_call>"), encode(call_image), encode(" "), encode("<tool"),
            encode("_call"), encode(">"), encode(call_job)});
  REQUIRE(std::find(reply.begin(), reply.end(), 151657) != reply.end());
  for (const bool token_trigger : {false, true}) {
    INFO((token_trigger ? "token trigger" : "text trigger"));
    const Grammar grammar = Grammar::from_source("structural_tag", tool_calls(token_trigger));
    const Constraint oracle = Constraint::compile(grammar, tokenizer, {.engine = Engine::kOracle});
    // The oracle's rows once; then each engine along the same tokens.
    std::vector<std::vector<std::uint32_t>> expected;
    Matcher reference(oracle);
    bool accepted_all = true;
    for (const std::int32_t token : reply) {
      const std::span<const std::uint32_t> row = reference.next_token_mask();
      expected.emplace_back(row.begin(), row.end());
      if (!reference.accept_token(token)) {
        accepted_all = false;
        break;
      }
    }
    // With the token as trigger, the pieces "<tool" "_call" ">" are free text, and the call's
    // text after them is free text too: the reply is still a sentence.
    CHECK(accepted_all);
    CHECK(reference.is_accepting());
    // The wfa and the spanner; the lazy engine (and the staged one's first steps) walk the
    // vocabulary's trie through a grammar read byte by byte, tens of milliseconds a step with
    // Qwen3's 151,669 ids, so they are checked on the small vocabularies of
    // structural_tag_test.cpp instead.
    for (const Engine engine : {Engine::kWfa, Engine::kSpanner}) {
      INFO("engine " << engine_name(engine));
      const Constraint constraint = Constraint::compile(grammar, tokenizer, {.engine = engine});
      Matcher matcher(constraint);
      for (std::size_t step = 0; step < expected.size(); ++step) {
        INFO("step " << step);
        const std::span<const std::uint32_t> row = matcher.next_token_mask();
        REQUIRE(std::vector<std::uint32_t>(row.begin(), row.end()) == expected[step]);
        if (step < reply.size()) REQUIRE(matcher.accept_token(reply[step]));
      }
    }
    // Where the token is the trigger, its text spelled by pieces opens nothing: after the
    // pieces the arguments' schema is not forced (any free text may follow).
    Matcher free_text(oracle);
    REQUIRE(free_text.accept_tokens(join({encode("<tool"), encode("_call"), encode(">")})));
    CHECK(free_text.is_accepting() == token_trigger);
  }
}

}  // namespace glrmask::structural_tag_corpus_test
