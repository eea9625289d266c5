// The tokenizer commands of the `glrmask` program, run as a user runs them: output, exit codes,
// and one-line located errors for bad input.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::count_lines;
using glrmask::testing::run_command;

namespace {

std::string glrmask_cmd(const std::string& args) {
  return testing::glrmask_binary().string() + " " + args;
}

std::filesystem::path write_temp(const std::string& name, const std::string& content) {
  auto path = std::filesystem::temp_directory_path() / ("glrmask_cli_" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace

TEST_CASE("tokenize prints the encoder's ids on one line") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const std::string text = "{\"key\": [1, 2.5, \"caf\xc3\xa9\"]}\n";
  auto file = write_temp("tokenize.json", text);
  auto result = run_command(glrmask_cmd("tokenize --tokenizer llama3 " + file.string()));
  REQUIRE(result.exit_code == 0);
  REQUIRE(count_lines(result.output) == 1);

  std::istringstream in(result.output);
  std::vector<TokenId> printed;
  for (TokenId id; in >> id;) printed.push_back(id);
  auto expected = Encoder::load(resolve_tokenizer("llama3")).encode(text);
  CHECK(printed == expected);
  // And the ids spell the file back.
  CHECK(Vocabulary::load(resolve_tokenizer("llama3")).decode(printed) == text);
}

TEST_CASE("vocab reports size, EOS and a byte-length histogram") {
  if (!testing::require_tokenizer("qwen3")) return glrmask::testing::skip_test_case();
  auto result = run_command(glrmask_cmd("vocab --tokenizer qwen3"));
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("ids           151669"));
  CHECK_THAT(result.output, Catch::Contains("EOS           151645 <|im_end|>"));
  CHECK_THAT(result.output, Catch::Contains("byte length   tokens"));
}

TEST_CASE("demo runs the main job on its embedded default") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  auto result = run_command(glrmask_cmd("demo --repeat 3"));
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("128256 ids"));
  // The bundled JSON document was teacher-forced through the oracle: every real token was in its
  // mask (the demo fails otherwise), and the latency table has both calls.
  CHECK_THAT(result.output, Catch::Contains("every real token was in its mask"));
  CHECK_THAT(result.output, Catch::Contains("get_mask") && Catch::Contains("commit"));
  CHECK_THAT(result.output, Catch::Contains("MB/s"));
}

TEST_CASE("bad tokenizer input gives one located line and exit code 2") {
  SECTION("unknown name") {
    auto result = run_command(glrmask_cmd("vocab --tokenizer llama9"));
    CHECK(result.exit_code == 2);
    CHECK(count_lines(result.output) == 1);
    CHECK_THAT(result.output, Catch::Contains("llama9: unknown tokenizer name"));
  }
  SECTION("missing file") {
    auto result = run_command(glrmask_cmd("vocab --tokenizer /nonexistent/tokenizer.json"));
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("/nonexistent/tokenizer.json: no such file"));
  }
  SECTION("truncated file") {
    auto file = write_temp("truncated_tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a)");
    auto result = run_command(glrmask_cmd("vocab --tokenizer " + file.string()));
    CHECK(result.exit_code == 2);
    CHECK(count_lines(result.output) == 1);
    CHECK_THAT(result.output, Catch::Contains(file.string()));
  }
  SECTION("unsupported model") {
    auto file = write_temp("wordpiece_tokenizer.json",
                           R"({"model": {"type": "WordPiece", "vocab": {"a": 0}}})");
    auto result = run_command(glrmask_cmd("vocab --tokenizer " + file.string()));
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains(file.string()) && Catch::Contains("WordPiece"));
  }
  SECTION("invalid UTF-8 in the text names the byte offset") {
    if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
    auto file = write_temp("bad_utf8.txt", std::string("ok \xff!"));
    auto result = run_command(glrmask_cmd("tokenize --tokenizer llama3 " + file.string()));
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("offset 3"));
  }
  SECTION("unknown option and missing argument") {
    CHECK(run_command(glrmask_cmd("vocab --tokenizer llama3 --frobnicate")).exit_code == 2);
    CHECK(run_command(glrmask_cmd("tokenize --tokenizer llama3")).exit_code == 2);
    CHECK(run_command(glrmask_cmd("nosuchcommand")).exit_code == 2);
  }
}
