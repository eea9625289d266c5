// `glrmask compile` and `glrmask mask --artifact`: the statistics it prints, the artifact it
// writes, teacher forcing from that artifact, and the refusal of an artifact made for another
// tokenizer or grammar (exit code 2 and a message naming the reason).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/test_support.h"

using glrmask::testing::run_command;
using glrmask::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

std::string command(const std::string& arguments) {
  return glrmask::testing::glrmask_binary().string() + " " + arguments;
}

// Teacher-forces a sum through `glrmask mask --artifact` against the oracle: no mismatch.
void check_oracle_masks(const fs::path& grammar, const fs::path& artifact,
                        const ScratchDir& scratch) {
  std::ofstream(scratch.path / "input.txt") << "12 + 3+45";
  const auto forced = run_command(command(
      "mask " + grammar.string() + " --start sum --input " + (scratch.path / "input.txt").string() +
      " --artifact " + artifact.string() + " --tokenizer llama3 --compare oracle"));
  INFO(forced.output);
  CHECK(forced.exit_code == 0);
  CHECK_THAT(forced.output, Catch::Contains("mismatches   0 steps"));
}

}  // namespace

TEST_CASE("glrmask compile prints the automata's statistics and writes a loadable artifact") {
  if (!glrmask::testing::require_tokenizer("llama3") ||
      !glrmask::testing::require_tokenizer("llama2"))
    return glrmask::testing::skip_test_case();
  ScratchDir scratch;
  const fs::path grammar = glrmask::testing::fixtures_dir() / "cli" / "sum.lark";
  const fs::path artifact = scratch.path / "sum.glrmask";
  const auto compiled = run_command(command(
      "compile " + grammar.string() + " --start sum --tokenizer llama3 -o " + artifact.string()));
  INFO(compiled.output);
  REQUIRE(compiled.exit_code == 0);
  for (const char* line : {"terminal DWA", "parser DWA", "distinct weights", "early-label starts",
                           "stack depth read", "peak memory", "artifact"})
    CHECK_THAT(compiled.output, Catch::Contains(line));
  REQUIRE(fs::file_size(artifact) > 0);

  std::ofstream(scratch.path / "input.txt") << "12 + 3+45";
  const std::string mask = "mask " + grammar.string() + " --start sum --input " +
                           (scratch.path / "input.txt").string() + " --artifact " +
                           artifact.string();
  const auto forced = run_command(command(mask + " --tokenizer llama3 --compare oracle"));
  INFO(forced.output);
  CHECK(forced.exit_code == 0);
  CHECK_THAT(forced.output, Catch::Contains("engine       wfa (compared with oracle)") &&
                                Catch::Contains("mismatches   0 steps") &&
                                Catch::Contains("loaded in"));

  const auto other_tokenizer = run_command(command(mask + " --tokenizer llama2"));
  CHECK(other_tokenizer.exit_code == 2);
  CHECK_THAT(other_tokenizer.output, Catch::Contains("compiled for the tokenizer 'llama3'"));
  const auto other_start = run_command(
      command("mask " + grammar.string() + " --input " + (scratch.path / "input.txt").string() +
              " --artifact " + artifact.string() + " --tokenizer llama3"));
  CHECK(other_start.exit_code == 2);
  // The option that differs is named.
  CHECK_THAT(other_start.output, Catch::Contains("--start: the artifact was compiled with sum"));
}

TEST_CASE("glrmask compile --no-early-label-starts builds an automaton that feeds early labels") {
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  ScratchDir scratch;
  const fs::path grammar = glrmask::testing::fixtures_dir() / "cli" / "sum.lark";
  const auto with =
      run_command(command("compile " + grammar.string() + " --start sum --tokenizer llama3"));
  INFO(with.output);
  REQUIRE(with.exit_code == 0);
  CHECK_THAT(with.output, !Catch::Contains("early-label starts   0 "));
  const fs::path artifact = scratch.path / "sum.glrmask";
  const auto without =
      run_command(command("compile " + grammar.string() + " --start sum --tokenizer llama3 " +
                          "--no-early-label-starts -o " + artifact.string()));
  INFO(without.output);
  REQUIRE(without.exit_code == 0);
  CHECK_THAT(without.output, Catch::Contains("early-label starts   0 "));
  // The engine feeds those labels itself: still the oracle's masks.
  check_oracle_masks(grammar, artifact, scratch);
}

TEST_CASE("glrmask compile --build-threads sets the Parser DWA's threads, and refuses 0") {
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  ScratchDir scratch;
  const fs::path grammar = glrmask::testing::fixtures_dir() / "cli" / "sum.lark";
  const std::string compile = "compile " + grammar.string() + " --start sum --tokenizer llama3 ";
  const fs::path artifact = scratch.path / "sum.glrmask";
  const auto three = run_command(command(compile + "--build-threads 3 -o " + artifact.string()));
  INFO(three.output);
  REQUIRE(three.exit_code == 0);
  CHECK_THAT(three.output, Catch::Contains("(3 threads)"));
  // The automaton built by three threads gives the oracle's masks.
  check_oracle_masks(grammar, artifact, scratch);
  for (const char* bad : {"0", "two"}) {
    const auto refused = run_command(command(compile + "--build-threads " + bad));
    INFO(refused.output);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.output,
               Catch::Contains("--build-threads") && Catch::Contains("expected an integer >= 1"));
  }
}

TEST_CASE("glrmask compile and mask take a padded vocabulary (BASE+DONOR@SIZE)") {
  ScratchDir scratch;
  const fs::path fixtures = glrmask::testing::fixtures_dir();
  const fs::path grammar = fixtures / "cli" / "sum.lark";
  const std::string base =
      (fixtures / "tokenizers" / "tiny_byte_level" / "tokenizer.json").string();
  const std::string padded =
      base + "+" + (fixtures / "tokenizers" / "tiny_sentencepiece" / "tokenizer.json").string() +
      "@275";
  const fs::path artifact = scratch.path / "sum.glrmask";
  const auto compiled =
      run_command(command("compile " + grammar.string() + " --start sum --tokenizer '" + padded +
                          "' -o " + artifact.string()));
  INFO(compiled.output);
  REQUIRE(compiled.exit_code == 0);
  CHECK_THAT(compiled.output, Catch::Contains("(275 ids)"));

  std::ofstream(scratch.path / "input.txt") << "12 + 3+45";
  const std::string mask = "mask " + grammar.string() + " --start sum --input " +
                           (scratch.path / "input.txt").string() + " --artifact " +
                           artifact.string();
  const auto forced = run_command(command(mask + " --tokenizer '" + padded + "' --compare oracle"));
  INFO(forced.output);
  CHECK(forced.exit_code == 0);
  CHECK_THAT(forced.output, Catch::Contains("mismatches   0 steps"));
  const auto unpadded = run_command(command(mask + " --tokenizer " + base));
  CHECK(unpadded.exit_code == 2);
  CHECK_THAT(
      unpadded.output,
      Catch::Contains("compiled for the tokenizer 'tiny_byte_level+tiny_sentencepiece@275'"));

  const auto malformed =
      run_command(command("compile " + grammar.string() +
                          " --start sum --tokenizer llama2@1000 -o " + artifact.string()));
  CHECK(malformed.exit_code == 2);
  CHECK_THAT(malformed.output, Catch::Contains("no donor tokenizer after the base"));
}
