// `glrmask mask` (teacher forcing): step counts, rejections with their place, the JSON form, the
// comparison of an engine with itself, and no rejection on texts the SynCode JSON grammar accepts.
// Expected steps and token ids come from the Encoder (tested against the reference tokenizer on
// its own); expected byte offsets are counted by hand from the texts.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::run_command;
namespace fs = std::filesystem;

namespace {

fs::path list_grammar() {
  return testing::fixtures_dir() / "cli" / "check_list.lark";
}

testing::CommandResult run_mask(const fs::path& grammar, const fs::path& input,
                                const std::string& extra = "") {
  return run_command(testing::shell_quoted(testing::glrmask_binary()) + " mask " +
                     testing::shell_quoted(grammar) + " --tokenizer llama3 --input " +
                     testing::shell_quoted(input) + " " + extra);
}

const Encoder& llama3_encoder() {
  static const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  return encoder;
}

// The index of the token that begins at byte `offset` of `text` under the Llama-3 encoding.
std::size_t token_index_at(const std::string& text, std::size_t offset) {
  static const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const std::vector<TokenId> ids = llama3_encoder().encode(text);
  std::size_t at = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (at == offset) return i;
    at += vocabulary.bytes(ids[i]).size();
  }
  FAIL("no token begins at byte " << offset << " of " << text);
  return 0;
}

// The number after "key": in one-line JSON (the first occurrence).
double json_number(const std::string& json, const std::string& key) {
  const std::string needle = "\"" + key + "\":";
  const auto at = json.find(needle);
  if (at == std::string::npos) FAIL("no key " << key << " in " << json);
  return std::strtod(json.c_str() + at + needle.size(), nullptr);
}

}  // namespace

TEST_CASE("mask: a sentence passes with one step per token plus EOS") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const std::string text = "[1, 2, [3, [], [44, 5]]]";
  const auto input = scratch.write("good.txt", text);
  const auto result = run_mask(list_grammar(), input);
  INFO(result.output);
  CHECK(result.exit_code == 0);
  const std::size_t steps = llama3_encoder().encode(text).size() + 1;
  CHECK_THAT(result.output, Catch::Contains(fmt::format("steps        {} of {}", steps, steps)));
  CHECK_THAT(result.output, Catch::Contains("rejections   0"));
  CHECK_THAT(result.output, Catch::Contains("result       ok"));
  CHECK_THAT(result.output, Catch::Contains("mask us      n=" + std::to_string(steps)));
  CHECK_THAT(result.output, Catch::Contains("commit us    n=" + std::to_string(steps)));
}

TEST_CASE("mask: a token the grammar forbids is a rejection naming its step and offset") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  // "[1, 2 3]": the "3" at byte 6 cannot follow "2 " (a comma or "]" must come first).
  const std::string text = "[1, 2 3]";
  const auto input = scratch.write("bad.txt", text);
  const auto result = run_mask(list_grammar(), input);
  INFO(result.output);
  CHECK(result.exit_code == 1);
  const std::size_t step = token_index_at(text, 6);
  const TokenId three = llama3_encoder().encode(text)[step];
  CHECK_THAT(
      result.output,
      Catch::Contains(fmt::format(
          "step {}, byte offset 6, token {} \"3\": the token is not in the mask", step, three)));
  // The steps stop at the rejection.
  CHECK_THAT(result.output, Catch::Contains(fmt::format("steps        {} of", step + 1)));
  CHECK_THAT(result.output, Catch::Contains("result       failed"));
}

TEST_CASE("mask: an unfinished text is rejected at the EOS step") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const std::string text = "[1, [2]";  // one "]" short
  const auto input = scratch.write("short.txt", text);
  const auto result = run_mask(list_grammar(), input);
  INFO(result.output);
  CHECK(result.exit_code == 1);
  const std::size_t tokens = llama3_encoder().encode(text).size();
  CHECK_THAT(result.output, Catch::Contains(fmt::format("step {}, byte offset 7, token ", tokens)));
  CHECK_THAT(result.output, Catch::Contains("EOS is not in the mask"));

  // --max-steps stops before the EOS step: the prefix is fine.
  const auto cut = run_mask(list_grammar(), input, "--max-steps 3");
  INFO(cut.output);
  CHECK(cut.exit_code == 0);
  CHECK_THAT(cut.output, Catch::Contains("steps        3 of 3"));
  CHECK_THAT(cut.output, Catch::Contains("cut short by --max-steps"));
}

TEST_CASE("mask --json: one object with the same figures") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const std::string good_text = "[[1], 22, [333]]";
  const auto good = scratch.write("good.txt", good_text);
  const auto result = run_mask(list_grammar(), good, "--json");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  REQUIRE(result.output.front() == '{');
  REQUIRE(result.output.find('\n') == result.output.size() - 1);  // one line
  const double steps = static_cast<double>(llama3_encoder().encode(good_text).size() + 1);
  CHECK(json_number(result.output, "steps") == steps);
  CHECK(json_number(result.output, "planned_steps") == steps);
  CHECK(json_number(result.output, "input_bytes") == static_cast<double>(good_text.size()));
  CHECK(json_number(result.output, "rejection_count") == 0);
  CHECK(json_number(result.output, "mismatch_steps") == 0);
  CHECK_THAT(result.output, Catch::Contains("\"rejections\":[]"));
  CHECK_THAT(result.output, Catch::Contains("\"ok\":true}"));
  CHECK_THAT(result.output, Catch::Contains("\"compare\":null"));
  // Latencies: one sample per step, and percentiles in order.
  const auto mask_at = result.output.find("\"mask_latency\":");
  REQUIRE(mask_at != std::string::npos);
  const std::string mask_latency = result.output.substr(mask_at);
  CHECK(json_number(mask_latency, "count") == steps);
  CHECK(json_number(mask_latency, "p50_us") > 0);
  CHECK(json_number(mask_latency, "p50_us") <= json_number(mask_latency, "p90_us"));
  CHECK(json_number(mask_latency, "p90_us") <= json_number(mask_latency, "p99_us"));
  CHECK(json_number(mask_latency, "p99_us") <= json_number(mask_latency, "p999_us"));
  CHECK(json_number(mask_latency, "p999_us") <= json_number(mask_latency, "max_us"));

  const auto bad = scratch.write("bad.txt", "[1,,2]");
  const auto rejected = run_mask(list_grammar(), bad, "--json");
  INFO(rejected.output);
  CHECK(rejected.exit_code == 1);
  CHECK(json_number(rejected.output, "rejection_count") == 1);
  CHECK_THAT(rejected.output, Catch::Contains("\"rejections\":[{\"step\":"));
  // The token holding the second comma is refused; Llama-3 spells ",," as one token from byte 2
  // (token_index_at fails if no token begins there).
  const std::size_t step = token_index_at("[1,,2]", 2);
  CHECK(json_number(rejected.output, "byte_offset") == 2);
  CHECK(json_number(rejected.output, "step") == static_cast<double>(step));
  CHECK_THAT(rejected.output, Catch::Contains("\"ok\":false}"));
}

TEST_CASE("mask --compare: an engine agrees with itself bit for bit") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const auto input = scratch.write("good.txt", "[7, [8, 9]]");
  const auto result = run_mask(list_grammar(), input, "--engine oracle --compare oracle");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("engine       oracle (compared with oracle)"));
  CHECK_THAT(result.output, Catch::Contains("mismatches   0 steps"));
  CHECK_THAT(result.output, Catch::Contains("compare us   n="));
}

TEST_CASE("mask: bad command lines and inputs exit 2 with one located line") {
  testing::ScratchDir scratch;
  const auto input = scratch.write("good.txt", "[1]");
  const auto unknown_engine = run_mask(list_grammar(), input, "--engine nope");
  CHECK(unknown_engine.exit_code == 2);
  CHECK_THAT(unknown_engine.output,
             Catch::Contains("option --engine: unknown mask engine 'nope' (known: auto, wfa, "
                             "spanner, oracle, lazy, staged)"));
  const auto zero_steps = run_mask(list_grammar(), input, "--max-steps 0");
  CHECK(zero_steps.exit_code == 2);
  CHECK_THAT(zero_steps.output, Catch::Contains("option --max-steps"));
  const auto missing = run_mask(list_grammar(), scratch.path / "absent.txt");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output,
             Catch::Contains("absent.txt: cannot open the file: No such file or directory"));
  const auto no_input = run_command(testing::shell_quoted(testing::glrmask_binary()) + " mask " +
                                    testing::shell_quoted(list_grammar()) + " --tokenizer llama3");
  CHECK(no_input.exit_code == 2);
  CHECK_THAT(no_input.output, Catch::Contains("missing required option --input"));
}

TEST_CASE("mask: texts the SynCode JSON grammar accepts pass under both policies") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  if (!testing::require_data_dir("cli_mask_test (SynCode JSON grammar)"))
    return glrmask::testing::skip_test_case();
  const fs::path grammar = data_dir() / "grammars/syncode/json_grammar.lark";
  testing::ScratchDir scratch;
  // Strings without escapes: the grammar's NONEMPTY_STRING is /"[^"]+"/.
  std::vector<std::string> texts = {
      R"({"a": 1, "b": [true, false, null], "c": {"d": -2.5e3, "e": ""}})",
      "[\n  {\"name\": \"Zoë\", \"tags\": [\"x\", \"y z\"]},\n  []\n]",
      R"({"settings": {"printInEndpoint": true}})",  // a MaskBench instance (Github_easy o10008)
  };
  // A few more MaskBench instances, written as the benchmark writes them, when python3 is there.
  if (run_command("python3 -c 'import json'").exit_code == 0) {
    const auto dump = run_command(
        "python3 " +
        testing::shell_quoted(testing::source_dir() / "tests/reference/dump_instances.py") + " " +
        testing::shell_quoted(data_dir() / "jsonschema/maskbench-dev") + " " +
        testing::shell_quoted(scratch.path / "dump"));
    REQUIRE(dump.exit_code == 0);
    for (const char* name : {"Github_easy---o1114--0.json", "Github_easy---o12214--0.json",
                             "Github_easy---o12621--0.json"}) {
      const std::string text = testing::read_file(scratch.path / "dump" / name);
      if (!text.empty() && text.size() < 400 && text.find('\\') == std::string::npos)
        texts.push_back(text);
    }
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    INFO(texts[i]);
    const auto input = scratch.write("json" + std::to_string(i) + ".json", texts[i]);
    const std::size_t steps = llama3_encoder().encode(texts[i]).size() + 1;
    for (const std::string policy : {"glr", "lark"}) {
      const auto result = run_mask(grammar, input, "--policy " + policy);
      INFO(result.output);
      CHECK(result.exit_code == 0);
      CHECK_THAT(result.output,
                 Catch::Contains(fmt::format("steps        {} of {}", steps, steps)));
    }
  }
}
