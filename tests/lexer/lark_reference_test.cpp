// Our lexer with a hand-written copy of the Go grammar's terminals against Lark's basic lexer
// (tests/reference/lark_lex.py) on the real Go corpus. The two lexers differ by design (longest
// match versus Lark's ordered alternation, docs/lexer.md), but for this grammar they must agree
// lexeme for lexeme, and on where a file stops lexing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "tests/support/lexer_spec_fixtures.h"
#include "tests/support/test_support.h"

namespace glrmask::lexer {
namespace {

// Lexes every file with lark_lex.py's functions in one Python process. Output per file:
// "FILE <path>", the lexeme lines, then "ERROR <byte offset>" or "OK".
constexpr const char* kDriver = R"PY(
import sys
sys.path.insert(0, sys.argv[1])
import lark_lex
parser = lark_lex.build_parser(sys.argv[2])
with open(sys.argv[3], 'w', encoding='utf-8') as out:
    for path in sys.argv[4:]:
        with open(path, encoding='utf-8') as f:
            lines, error = lark_lex.lex_lines(parser, f.read())
        out.write('FILE %s\n' % path)
        out.writelines(line + '\n' for line in lines)
        out.write('OK\n' if error is None else
                  'ERROR %s\n' % error.split('byte offset ')[1].split(':')[0])
)PY";

struct ReferenceLexeme {
  std::string name;
  uint64_t begin;
  uint64_t end;
};

struct ReferenceResult {
  std::vector<ReferenceLexeme> lexemes;
  int64_t error_offset = -1;
};

std::string python_interpreter() {
  if (std::filesystem::exists("/usr/bin/python3")) return "/usr/bin/python3";  // has python3-lark
  return "python3";
}

TEST_CASE("Go corpus: same lexemes as Lark's lexer") {
  if (!testing::require_data_dir("lexer comparison with Lark on the Go corpus"))
    return glrmask::testing::skip_test_case();
  if (testing::run_command(python_interpreter() + " -c 'import lark'").exit_code != 0) {
    WARN("*** python3-lark is not installed: the comparison with Lark is SKIPPED ***");
    return;
  }
  const auto grammar = data_dir() / "grammars" / "syncode" / "go_grammar.lark";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() / "programs" / "go")) {
    if (entry.path().extension() == ".go") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());

  const auto dir = std::filesystem::temp_directory_path() /
                   ("glrmask_lark_lex_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "driver.py") << kDriver;
  std::string command = python_interpreter() + " " + (dir / "driver.py").string() + " " +
                        (testing::source_dir() / "tests" / "reference").string() + " " +
                        grammar.string() + " " + (dir / "out.txt").string();
  for (const auto& file : files) command += " " + file.string();
  const testing::CommandResult result = testing::run_command(command);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);

  std::map<std::string, ReferenceResult> reference;
  {
    std::ifstream output(dir / "out.txt");
    ReferenceResult* current = nullptr;
    for (std::string line; std::getline(output, line);) {
      if (line.rfind("FILE ", 0) == 0) {
        current = &reference[line.substr(5)];
      } else if (line == "OK") {
        current = nullptr;
      } else if (line.rfind("ERROR ", 0) == 0) {
        current->error_offset = std::stoll(line.substr(6));
      } else {
        std::istringstream fields(line);
        ReferenceLexeme lexeme;
        fields >> lexeme.name >> lexeme.begin >> lexeme.end;
        current->lexemes.push_back(lexeme);
      }
    }
  }
  std::filesystem::remove_all(dir);
  REQUIRE(reference.size() == files.size());

  const LexerDfa dfa = compile_lexer_dfa(testing::go_terminals());
  size_t files_lexed = 0;
  size_t lexemes_compared = 0;
  for (const auto& file : files) {
    INFO(file.filename().string());
    const ReferenceResult& expected = reference.at(file.string());
    const std::string text = testing::read_file(file);
    // Feed like a decoder would, so the comparison also covers the streaming path.
    StreamingLexer lexer(dfa);
    std::vector<Lexeme> lexemes;
    std::string error;
    try {
      for (size_t i = 0; i < text.size(); i += 5) lexer.feed(text.substr(i, 5), lexemes);
      lexer.finish(lexemes);
    } catch (const Error& e) {
      error = e.what();
    }
    if (expected.error_offset < 0) {
      CHECK(error.empty());
      ++files_lexed;
    } else {
      CHECK_THAT(error,
                 Catch::Contains("byte offset " + std::to_string(expected.error_offset) + ":"));
    }
    // Lark reports no lexeme after its error; ours may have emitted the ones before it only.
    REQUIRE(lexemes.size() == expected.lexemes.size());
    for (size_t i = 0; i < lexemes.size(); ++i) {
      const ReferenceLexeme& want = expected.lexemes[i];
      INFO("lexeme " << i << " expected " << want.name << " [" << want.begin << ", " << want.end
                     << ")");
      CHECK(lexemes[i].begin == want.begin);
      CHECK(lexemes[i].end == want.end);
      CHECK(dfa.describe_label(lexemes[i].label) == want.name);
      ++lexemes_compared;
    }
  }
  CHECK(files_lexed > files.size() / 2);
  CHECK(lexemes_compared > 10000);
}

}  // namespace
}  // namespace glrmask::lexer
