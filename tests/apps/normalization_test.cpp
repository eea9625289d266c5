// `glrmask compile` says what the normalization of derivation cycles and hidden left recursion
// did (glr/cfg_normalization.h): the rules found and the nonterminals added, or "none".
#include <catch2/catch.hpp>
#include <string>

#include "tests/support/test_support.h"

using glrmask::testing::fixtures_dir;
using glrmask::testing::run_command;

namespace {

glrmask::testing::CommandResult compile(const std::string& fixture) {
  const std::string tokenizer =
      (fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json").string();
  return run_command(glrmask::testing::glrmask_binary().string() + " compile " +
                     (fixtures_dir() / "glr_session" / fixture).string() + " --tokenizer " +
                     tokenizer);
}

}  // namespace

TEST_CASE("glrmask compile names the rules it normalized") {
  const auto hidden = compile("hidden_left_recursion.lark");
  INFO(hidden.output);
  REQUIRE(hidden.exit_code == 0);
  CHECK_THAT(hidden.output, Catch::Contains("normalization        rewrote the rules of s") &&
                                Catch::Contains("hidden left recursion: s -> n s") &&
                                Catch::Contains("hidden_left_recursion.lark:") &&
                                Catch::Contains("added n'"));
  const auto cyclic = compile("cyclic.lark");
  INFO(cyclic.output);
  REQUIRE(cyclic.exit_code == 0);
  CHECK_THAT(cyclic.output, Catch::Contains("derivation cycle: s -> s s"));
  const auto plain = compile("hidden_right_recursion.lark");
  INFO(plain.output);
  REQUIRE(plain.exit_code == 0);
  CHECK_THAT(plain.output, Catch::Contains("normalization        none\n"));
}
