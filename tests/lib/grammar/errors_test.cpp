// Malformed grammars are refused with a GrammarError naming file, line and column. Each file in
// tests/fixtures/grammars/broken/ states on its first line the error it must produce:
//   // error: LINE:COL: MESSAGE          ({file} in MESSAGE stands for the file's own path)
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_loader.h"
#include "tests/support/test_support.h"

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
  static constexpr std::string_view kPrefix = "// error: ";
  REQUIRE(first_line.starts_with(kPrefix));
  std::istringstream header(first_line.substr(kPrefix.size()));
  Expectation expected;
  char colon1 = 0, colon2 = 0;
  header >> expected.line >> colon1 >> expected.column >> colon2;
  REQUIRE(colon1 == ':');
  REQUIRE(colon2 == ':');
  header.get();  // the space after "L:C:"
  std::getline(header, expected.message);
  REQUIRE(!expected.message.empty());
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

TEST_CASE("mutated grammars load or fail with a located GrammarError, never otherwise") {
  // Deterministic mutations of the valid fixtures: characters of Lark's syntax inserted, deleted
  // or replaced. Every outcome must be a grammar or a GrammarError (run under the sanitizers,
  // this also catches memory errors on malformed input).
  static constexpr std::string_view kAlphabet = "()[]{}|:/\\?*+~.%->_!aZ9i \n\"'";
  std::mt19937 random(20240531);
  std::size_t refused = 0, loaded = 0;
  for (const char* name : {"ebnf.lark", "terminals.lark", "directives.lark", "shapes.lark"}) {
    const std::string original = testing::read_file(testing::fixtures_dir() / "grammars" / name);
    for (int round = 0; round < 300; ++round) {
      std::string text = original;
      const int edits = 1 + static_cast<int>(random() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = random() % (text.size() + 1);
        const char c = kAlphabet[random() % kAlphabet.size()];
        switch (random() % 3) {
          case 0:
            text.insert(at, 1, c);
            break;
          case 1:
            if (at < text.size()) text.erase(at, 1);
            break;
          default:
            if (at < text.size()) text[at] = c;
            break;
        }
      }
      INFO(text);
      try {
        load_lark_text(text, "mutated.lark");
        ++loaded;
      } catch (const GrammarError& error) {
        CHECK(error.where().file == "mutated.lark");
        CHECK(error.where().line >= 1);
        CHECK(error.where().column >= 1);
        ++refused;
      }
    }
  }
  // Both outcomes must actually occur, or the mutations test nothing.
  CHECK(refused > 100);
  CHECK(loaded > 100);
}

TEST_CASE("a missing grammar file is an Error naming the path") {
  const std::filesystem::path missing = testing::fixtures_dir() / "grammars" / "no_such.lark";
  CHECK_THROWS_WITH(load_lark_file(missing), Catch::Matchers::Contains("cannot open the file") &&
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
