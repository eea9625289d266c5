// `--postlex python` on the command line (docs/indenter.md): check accepts and rejects by
// indentation, a grammar with %declare'd terminals is refused without the option and the error
// names it, and `mask` serves the grammar with the wfa and spanner engines as the oracle does.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/test_support.h"

using glrmask::testing::fixtures_dir;
using glrmask::testing::run_command;

namespace {

const std::string kGrammar = (fixtures_dir() / "indenter" / "blocks.lark").string();

std::string write_scratch(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("glrmask_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

glrmask::testing::CommandResult glrmask_cli(const std::string& arguments) {
  return run_command(glrmask::testing::glrmask_binary().string() + " " + arguments);
}

}  // namespace

TEST_CASE("glrmask check --postlex python follows the indentation") {
  const std::string good = write_scratch("postlex_good.txt", "a:\n  b\n  c:\n    d\ne\n");
  const std::string bad = write_scratch("postlex_bad.txt", "a:\n  b\n c\n");
  const auto accepted = glrmask_cli("check " + kGrammar + " " + good + " --postlex python");
  INFO(accepted.output);
  CHECK(accepted.exit_code == 0);
  CHECK_THAT(accepted.output, Catch::Contains(": accepted"));
  const auto rejected = glrmask_cli("check " + kGrammar + " " + bad + " --postlex python");
  INFO(rejected.output);
  CHECK(rejected.exit_code == 1);
  CHECK_THAT(rejected.output, Catch::Contains("dedents to width 1") &&
                                  Catch::Contains("not on the indentation stack {0, 2}"));
  const auto refused = glrmask_cli("check " + kGrammar + " " + good);
  INFO(refused.output);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output, Catch::Contains("blocks.lark:15:10") &&
                                 Catch::Contains("_INDENT is %declare'd") &&
                                 Catch::Contains("--postlex python"));
}

TEST_CASE("glrmask mask --postlex python: the wfa and the spanner equal the oracle") {
  const std::string text = write_scratch("postlex_mask.txt", "a:\n  b\n  c:\n    d\ne\n");
  const std::string tokenizer =
      (fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json").string();
  const std::string common =
      "mask " + kGrammar + " --tokenizer " + tokenizer + " --input " + text + " --postlex python";
  // The default engine is the fastest one that serves the grammar.
  const auto automatic = glrmask_cli(common);
  INFO(automatic.output);
  CHECK(automatic.exit_code == 0);
  CHECK_THAT(automatic.output, Catch::Contains("result       ok"));
  for (const std::string engine : {"wfa", "spanner"}) {
    const auto run = glrmask_cli(common + " --engine " + engine + " --compare oracle");
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output,
               Catch::Contains("mismatches   0 steps") && Catch::Contains("result       ok"));
  }
}
