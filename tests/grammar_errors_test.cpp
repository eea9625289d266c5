// Malformed grammars are refused with a GrammarError naming file, line and column. Each file in
// tests/fixtures/grammars/broken/ states on its first line the error it must produce:
//   // error: LINE:COL: MESSAGE          ({file} in MESSAGE stands for the file's own path)
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "lib/grammar_error.h"
#include "lib/lark_loader.h"
#include "tests/test_support.h"

namespace glrmask {
namespace {

struct Expectation {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;
};

Expectation expectation_of(const std::filesystem::path& path) {
  const std::string text = testing::read_file(path);
  const std::string first_line = text.substr(0, text.find('\n'));
  static const std::regex kHeader(R"(^// error: (\d+):(\d+): (.*)$)");
  std::smatch match;
  REQUIRE(std::regex_match(first_line, match, kHeader));
  Expectation expected{static_cast<std::uint32_t>(std::stoul(match[1])),
                       static_cast<std::uint32_t>(std::stoul(match[2])), match[3]};
  for (std::size_t at; (at = expected.message.find("{file}")) != std::string::npos;) {
    expected.message.replace(at, 6, path.string());
  }
  return expected;
}

TEST_CASE("every broken grammar is refused at the stated place with the stated message") {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::fixtures_dir() / "grammars" / "broken")) {
    if (entry.path().extension() == ".lark") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 50);
  for (const std::filesystem::path& path : files) {
    INFO(path.filename().string());
    const Expectation expected = expectation_of(path);
    try {
      load_lark_file(path);
      FAIL("the grammar was accepted");
    } catch (const GrammarError& error) {
      CHECK(error.where().file == path.string());
      CHECK(error.where().line == expected.line);
      CHECK(error.where().column == expected.column);
      CHECK(error.message() == expected.message);
      CHECK(std::string(error.what()) == path.string() + ":" + std::to_string(expected.line) + ":" +
                                             std::to_string(expected.column) + ": " +
                                             expected.message);
    }
  }
}

TEST_CASE("a missing grammar file is an Error naming the path") {
  const std::filesystem::path missing = testing::fixtures_dir() / "grammars" / "no_such.lark";
  CHECK_THROWS_WITH(load_lark_file(missing),
                    Catch::Matchers::Contains("cannot read grammar file") &&
                        Catch::Matchers::Contains(missing.string()));
}

TEST_CASE("text without a trailing newline and text in one line are read") {
  CHECK(load_lark_text("start: \"a\"", "t.lark").num_terminals() == 1);
  CHECK_THROWS_AS(load_lark_text("", "empty.lark"), GrammarError);
  CHECK_THROWS_WITH(load_lark_text("// only a comment", "c.lark"),
                    "c.lark:1:1: the start rule 'start' is not defined");
}

}  // namespace
}  // namespace glrmask
