// Every SynCode grammar in the shared data folder loads (python and yaml, without the post-lexer
// option, are refused with the precise reason), reads as Lark 1.1.5 reads it, and survives
// printing and reading back.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/lark/lark_writer.h"
#include "tests/support/grammar_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

std::filesystem::path syncode_dir() {
  return data_dir() / "grammars" / "syncode";
}

struct Expected {
  const char* file;
  std::size_t terminals;             // as Lark 1.1.5 counts them (see the data folder's SOURCE.md)
  std::size_t nonterminals_written;  // rules of the file that survive (Lark drops the same)
};

// Terminal counts are Lark's; rule names and per-rule alternative counts are compared with Lark
// itself below when it is installed.
constexpr Expected kLoadable[] = {
    {"c_grammar.lark", 32, 20},   {"calc_grammar.lark", 8, 4},
    {"go_grammar.lark", 87, 91},  // 97 rules, 6 of them unreachable
    {"invariants.lark", 34, 10},  {"java_grammar.lark", 98, 126},
    {"json_grammar.lark", 13, 6}, {"prover9_grammar.lark", 18, 17},
    {"sql_grammar.lark", 79, 60},  // 62 rules; date and time are unreachable
    {"tiny_grammar.lark", 2, 2},  {"branch-js/javascript_grammar.lark", 90, 52},
};

TEST_CASE("every SynCode grammar loads and matches Lark's reading") {
  if (!testing::require_data_dir("grammar_syncode_test (SynCode grammars)"))
    return glrmask::testing::skip_test_case();
  for (const Expected& expected : kLoadable) {
    const std::filesystem::path path = syncode_dir() / expected.file;
    INFO(path.string());
    const GrammarModel grammar = load_lark_file(path);
    CHECK(grammar.num_terminals() == expected.terminals);
    std::size_t written = 0;
    for (const Nonterminal& n : grammar.nonterminals()) written += n.generated ? 0 : 1;
    CHECK(written == expected.nonterminals_written);
    testing::check_against_lark(path, grammar);
  }
}

TEST_CASE("SynCode grammars keep the features they rely on") {
  if (!testing::require_data_dir("grammar_syncode_test (SynCode features)"))
    return glrmask::testing::skip_test_case();
  const GrammarModel go = load_lark_file(syncode_dir() / "go_grammar.lark");
  const auto terminal = [](const GrammarModel& g, const char* name) -> const Terminal& {
    return g.terminal(g.find_symbol(name).value());
  };
  CHECK(terminal(go, "HEX_LIT").priority == 2);
  CHECK(terminal(go, "HEX_LIT").flags == "i");
  CHECK(terminal(go, "__IGNORE_0").ignored);
  CHECK(terminal(go, "__IGNORE_1").pattern == "\\\\[\t \f]*\r?\n");
  const SymbolId operand = go.find_symbol("operand").value();
  for (const Rule& rule : go.rules_of(operand)) CHECK(rule.priority == 3);
  std::vector<std::string> unreachable;
  for (const Diagnostic& d : go.warnings()) unreachable.push_back(d.message);
  CHECK(unreachable.size() == 6);

  const GrammarModel prover9 = load_lark_file(syncode_dir() / "prover9_grammar.lark");
  CHECK(terminal(prover9, "VAR").priority == -1);
  CHECK(terminal(prover9, "__ANON_3").literal == "\u2200");

  const GrammarModel invariants = load_lark_file(syncode_dir() / "invariants.lark");
  CHECK(terminal(invariants, "TRUE").literal == "\true");  // Lark reads "\t" as a tab here too

  const GrammarModel sql = load_lark_file(syncode_dir() / "sql_grammar.lark");
  CHECK(terminal(sql, "SELECT").flags == "i");
  CHECK(terminal(sql, "SELECT_CONSTRAINT").priority == 9);
  CHECK(terminal(sql, "JOIN_EXPR").pattern.find("(?i:JOIN)") != std::string::npos);
  const SymbolId window_definition = sql.find_symbol("window_definition").value();
  REQUIRE(sql.rules_of(window_definition).size() == 1);
  CHECK(sql.rules_of(window_definition)[0].rhs.empty());

  const GrammarModel json = load_lark_file(syncode_dir() / "json_grammar.lark");
  CHECK(json.nonterminal(json.start()).shape.inline_if_single);
}

TEST_CASE("python and yaml are refused without a post-lexer (--postlex python)") {
  if (!testing::require_data_dir("grammar_syncode_test (indenter grammars)"))
    return glrmask::testing::skip_test_case();
  const std::string message =
      "terminal _INDENT is %declare'd: only a post-lexer can produce it; glrmask has Python's "
      "indenter, enabled with the post-lexer option (GrammarOptions::postlex python)";
  const std::pair<const char*, std::uint32_t> refused[] = {{"python_grammar.lark", 189},
                                                           {"branch-yaml/yaml_grammar.lark", 35}};
  for (const auto& [file, line] : refused) {
    const std::filesystem::path path = syncode_dir() / file;
    INFO(path.string());
    try {
      load_lark_file(path);
      FAIL("accepted");
    } catch (const GrammarError& error) {
      CHECK(error.location() == SourceLocation{path.string(), line, 10});
      CHECK(error.message() == message);
    }
  }
}

TEST_CASE("SynCode grammars print as Lark text that reads back the same, in glrmask and Lark") {
  if (!testing::require_data_dir("grammar_syncode_test (printing)"))
    return glrmask::testing::skip_test_case();
  for (const Expected& expected : kLoadable) {
    const std::filesystem::path path = syncode_dir() / expected.file;
    INFO(path.string());
    const GrammarModel original = load_lark_file(path);
    const std::string text = to_lark_text(original);
    const GrammarModel reread = load_lark_text(text, "printed.lark");
    CHECK(testing::canonical_dump(reread) == testing::canonical_dump(original));

    // Lark must read the printed BNF with the same terminals (anonymous ones may be numbered
    // differently, so compare the named ones and the patterns of the rest).
    const std::filesystem::path printed =
        std::filesystem::temp_directory_path() /
        ("glrmask_printed_" + std::to_string(::getpid()) + ".lark");
    std::ofstream(printed, std::ios::binary) << text;
    testing::check_against_lark(printed, reread);
    std::filesystem::remove(printed);
  }
}

}  // namespace
}  // namespace glrmask
