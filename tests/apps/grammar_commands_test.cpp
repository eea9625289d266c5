// `glrmask stats`, `glrmask conflicts` and `glrmask lex` on small grammars of tests/fixtures/cli/,
// whose figures are derived by hand in the comments, and the errors of all three (exit code 2 with
// a message naming the place).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace glrmask::testing {
namespace {

namespace fs = std::filesystem;

std::string cli_fixture(const std::string& name) {
  return (fixtures_dir() / "cli" / name).string();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The value of a `key   value` line of `glrmask stats`.
std::string stats_value(const std::string& text, const std::string& key) {
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(key + " ", 0) == 0) {
      const std::size_t value = line.find_first_not_of(' ', key.size());
      return value == std::string::npos ? "" : line.substr(value);
    }
  }
  return "(no line '" + key + "')";
}

// if_else.lark, by hand:
//   terminals IF THEN ELSE NAME WS (WS ignored); nonterminals start, stmt; rules start: stmt and
//   the three stmt alternatives, right-hand sides 1 + 4 + 6 + 1 = 12 symbols.
//   LR(0) states, numbered breadth first from the start state 0: 1-4 are the successors of 0
//   (on IF, NAME, start, stmt); 5 = stmt -> IF NAME . THEN ...; 6 = after THEN;
//   7 = stmt -> IF NAME THEN stmt . [ELSE stmt]; 8 = after ELSE; 9 = the complete if-else. 10
//   states. One conflict: state 7 on ELSE, shift against reducing rule 1 (rule 0 is start: stmt).
//   The shortest prefix with the reduction valid before ELSE nests an if-then inside an if-then.
//   Lexer DFA: dead, start, WS, i, if, t, th, the, then, e, el, els, else, any other NAME = 14
//   states, already minimal, one accept label per terminal and no ties.
TEST_CASE("stats on the dangling-else fixture") {
  const GlrmaskRun run = run_glrmask_args({"stats", cli_fixture("if_else.lark")});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(stats_value(run.out, "start") == "start");
  CHECK(stats_value(run.out, "terminals") == "5 (1 ignored)");
  CHECK(stats_value(run.out, "skippable") == "none");
  CHECK(stats_value(run.out, "nonterminals") == "2");
  CHECK(stats_value(run.out, "rules") == "4 (12 right-hand-side symbols)");
  CHECK(stats_value(run.out, "LR states") == "10 (LALR(1))");
  CHECK(stats_value(run.out, "conflict cells") == "1 (1 shift/reduce, 0 reduce/reduce)");
  CHECK(stats_value(run.out, "policy") == "glr: 1 cells fork");
  CHECK_THAT(stats_value(run.out, "lexer DFA"),
             Catch::StartsWith("14 states (14 before minimization,"));
  CHECK(stats_value(run.out, "accept labels") == "5 (0 ties)");
  CHECK(stats_value(run.out, "fall-back") == "0 unbounded");
  CHECK_THAT(stats_value(run.out, "build ms"), Catch::StartsWith("load "));
  // No reduce/reduce conflict, so canonical LR(1) is not built.
  CHECK(run.out.find("canonical LR(1)") == std::string::npos);

  // Under the lark policy shift wins the one conflict.
  const GlrmaskRun lark =
      run_glrmask_args({"stats", cli_fixture("if_else.lark"), "--policy", "lark"});
  REQUIRE(lark.exit_code == 0);
  CHECK(stats_value(lark.out, "policy") == "lark: 0 cells fork");
  CHECK(stats_value(lark.out, "conflict cells") == "1 (1 shift/reduce, 0 reduce/reduce)");

  // The same table size as the conflict report's header.
  const GlrmaskRun report = run_glrmask_args({"conflicts", cli_fixture("if_else.lark")});
  CHECK(has_line(report.out,
                 "LALR(1): 10 states, table " + stats_value(run.out, "table bytes") + " bytes"));
}

TEST_CASE("stats takes skippable terminals repeated or comma-separated") {
  const GlrmaskRun run = run_glrmask_args(
      {"stats", cli_fixture("if_else.lark"), "--skippable", "ELSE,THEN", "--skippable=NAME"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  std::istringstream names(stats_value(run.out, "skippable"));
  const std::set<std::string> got{std::istream_iterator<std::string>(names),
                                  std::istream_iterator<std::string>()};
  CHECK(got == std::set<std::string>{"ELSE", "NAME", "THEN"});

  const GlrmaskRun unknown =
      run_glrmask_args({"stats", cli_fixture("if_else.lark"), "--skippable", "EOS"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("skippable terminal 'EOS' is not a terminal"));
  const GlrmaskRun empty =
      run_glrmask_args({"stats", cli_fixture("if_else.lark"), "--skippable", "ELSE,"});
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Catch::Contains("--skippable: empty terminal name"));
}

// same_name_twice.lark: start -> a | b (rules 0, 1), a -> NAME (rule 2), b -> NAME (rule 3).
// States: 0, then on NAME state 1 holding both completed items, and the gotos on start, a, b:
// 5 states. Both reductions are valid on $END: a reduce/reduce conflict that canonical LR(1)
// (the same 5 states: no merging happened) has too, of equal priority, so the lark policy keeps
// both.
TEST_CASE("conflicts and stats on a reduce/reduce conflict of equal priority") {
  const std::string grammar = cli_fixture("same_name_twice.lark");
  const GlrmaskRun run = run_glrmask_args({"conflicts", grammar});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> expected = {
      "grammar: 1 terminals, 3 nonterminals, 4 rules",
      "LALR(1): 5 states, table " +
          stats_value(run_glrmask_args({"stats", grammar}).out, "table bytes") + " bytes",
      "conflicts: 1 cells (0 shift/reduce, 1 reduce/reduce)",
      "canonical LR(1): 5 states",
      "policy: glr (every conflict is a fork)",
      "",
      "state 1 on $END: reduce/reduce",
      "  reduce  a -> NAME .   [rule 2, priority 0, " + grammar + ":4:4]",
      "  reduce  b -> NAME .   [rule 3, priority 0, " + grammar + ":5:4]",
      "  example NAME . $END",
      "  also a reduce/reduce conflict in canonical LR(1)",
      "  lark    reduce by rule 2 (a -> NAME); reduce by rule 3 (b -> NAME) (still a fork)",
  };
  CHECK(lines_of(run.out) == expected);

  const GlrmaskRun lark = run_glrmask_args({"conflicts", grammar, "--policy=lark"});
  REQUIRE(lark.exit_code == 0);
  CHECK(has_line(lark.out, "policy: lark (1 of 1 cells still fork; only those are listed)"));
  CHECK(has_line(lark.out, "state 1 on $END: reduce/reduce"));

  const GlrmaskRun stats = run_glrmask_args({"stats", grammar});
  CHECK(stats_value(stats.out, "canonical LR(1)") == "5 states");
  CHECK(stats_value(stats.out, "conflict cells") == "1 (0 shift/reduce, 1 reduce/reduce)");
  CHECK(stats_value(stats.out, "terminals") == "1 (0 ignored)");
  CHECK(stats_value(stats.out, "nonterminals") == "3");
}

TEST_CASE("conflicts on the dangling-else fixture") {
  const std::string grammar = cli_fixture("if_else.lark");
  const GlrmaskRun run = run_glrmask_args({"conflicts", grammar});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines = lines_of(run.out);
  REQUIRE(lines.size() == 10);
  CHECK(lines[0] == "grammar: 5 terminals, 2 nonterminals, 4 rules");
  CHECK_THAT(lines[1], Catch::StartsWith("LALR(1): 10 states, table "));
  CHECK(lines[2] == "conflicts: 1 cells (1 shift/reduce, 0 reduce/reduce)");
  CHECK(lines[3] == "policy: glr (every conflict is a fork)");
  CHECK(lines[4] == "");
  CHECK(lines[5] == "state 7 on ELSE: shift/reduce");
  CHECK(lines[6] == "  shift   stmt -> IF NAME THEN stmt . ELSE stmt");
  // Rule 1 is the first stmt alternative, written at line 4, column 7 of the fixture.
  CHECK(lines[7] ==
        "  reduce  stmt -> IF NAME THEN stmt .   [rule 1, priority 0, " + grammar + ":4:7]");
  CHECK(lines[8] == "  example IF NAME THEN IF NAME THEN NAME . ELSE");
  CHECK(lines[9] == "  lark    shift to state 8");

  const GlrmaskRun lark = run_glrmask_args({"conflicts", grammar, "--policy", "lark"});
  REQUIRE(lark.exit_code == 0);
  CHECK(has_line(lark.out, "policy: lark (0 of 1 cells still fork; only those are listed)"));
  CHECK(lark.out.find("state 7") == std::string::npos);
}

// if_else.txt is "if x then if y then z else w": keywords are literals, so they beat NAME on
// equal length; spaces are the ignored WS.
const std::vector<std::string> kIfElseTokens = {
    "IF\t0\t2\tif",    "NAME\t3\t4\tx",      "THEN\t5\t9\tthen",
    "IF\t10\t12\tif",  "NAME\t13\t14\ty",    "THEN\t15\t19\tthen",
    "NAME\t20\t21\tz", "ELSE\t22\t26\telse", "NAME\t27\t28\tw",
};

TEST_CASE("lex prints the terminal stream, fed whole or in chunks") {
  const std::string grammar = cli_fixture("if_else.lark");
  const std::string input = cli_fixture("if_else.txt");
  const GlrmaskRun whole = run_glrmask_args({"lex", grammar, input});
  INFO(whole.err);
  REQUIRE(whole.exit_code == 0);
  CHECK(lines_of(whole.out) == kIfElseTokens);
  CHECK(whole.err.empty());
  for (const char* chunk : {"1", "2", "3", "7", "1000"}) {
    INFO("--chunk " << chunk);
    const GlrmaskRun chunked = run_glrmask_args({"lex", grammar, input, "--chunk", chunk});
    CHECK(chunked.exit_code == 0);
    CHECK(chunked.out == whole.out);
  }

  // --keep-ignored adds the single spaces between the words.
  const GlrmaskRun kept = run_glrmask_args({"lex", grammar, input, "--keep-ignored"});
  REQUIRE(kept.exit_code == 0);
  const std::vector<std::string> kept_lines = lines_of(kept.out);
  REQUIRE(kept_lines.size() == 17);
  for (std::size_t i = 0; i < kept_lines.size(); ++i) {
    if (i % 2 == 0) {
      CHECK(kept_lines[i] == kIfElseTokens[i / 2]);
    } else {
      const std::string& previous = kIfElseTokens[i / 2];
      const std::size_t end =
          std::stoul(previous.substr(previous.find('\t', previous.find('\t') + 1) + 1));
      CHECK(kept_lines[i] == "WS\t" + std::to_string(end) + "\t" + std::to_string(end + 1) + "\t ");
    }
  }

  // Longest match: "ifx" is one NAME, not IF then NAME; standard input as "-".
  const std::string text = "ifx then";
  const GlrmaskRun stdin_run = run_glrmask_args({"lex", grammar, "-"}, &text);
  REQUIRE(stdin_run.exit_code == 0);
  CHECK(lines_of(stdin_run.out) == std::vector<std::string>{"NAME\t0\t3\tifx", "THEN\t4\t8\tthen"});
}

TEST_CASE("lex shows ties, escapes the text column and honours --start") {
  // lark_differences.lark: FO /fo+/ and FOLONG /f(?:o)+/ tie on "foo"; WORD takes "ALLOWED" whole.
  const GlrmaskRun ties = run_glrmask_args(
      {"lex", cli_fixture("lark_differences.lark"), cli_fixture("lark_differences.txt")});
  INFO(ties.err);
  REQUIRE(ties.exit_code == 0);
  CHECK(lines_of(ties.out) == std::vector<std::string>{"WORD\t0\t7\tALLOWED", "AB\t8\t10\tab",
                                                       "FO|FOLONG\t11\t14\tfoo",
                                                       "ALL\t15\t18\tALL"});

  // One CHUNK of 12 bytes: a, TAB, b, backslash, c, U+0001, é (kept), U+0085 (a C1 control:
  // bytes c2 85), DEL, newline; then a space and "z".
  const std::string text = "a\tb\\c\x01\xc3\xa9\xc2\x85\x7f\n z";
  const GlrmaskRun escaped = run_glrmask_args({"lex", cli_fixture("any_text.lark"), "-"}, &text);
  REQUIRE(escaped.exit_code == 0);
  CHECK(lines_of(escaped.out) ==
        std::vector<std::string>{"CHUNK\t0\t12\ta\\tb\\\\c\\x01\xc3\xa9\\xc2\\x85\\x7f\\n",
                                 "CHUNK\t13\t14\tz"});

  // sum.lark: NUMBER and "+" belong to the grammar only when `sum` is the start rule.
  const std::string sum = "1 + 22";
  const GlrmaskRun default_start = run_glrmask_args({"lex", cli_fixture("sum.lark"), "-"}, &sum);
  CHECK(default_start.exit_code == 2);
  CHECK_THAT(default_start.err, Catch::Contains("lexer error at byte offset 0"));
  const GlrmaskRun sum_start =
      run_glrmask_args({"lex", cli_fixture("sum.lark"), "-", "--start", "sum"}, &sum);
  INFO(sum_start.err);
  REQUIRE(sum_start.exit_code == 0);
  CHECK(lines_of(sum_start.out) ==
        std::vector<std::string>{"NUMBER\t0\t1\t1", "PLUS\t2\t3\t+", "NUMBER\t4\t6\t22"});
}

TEST_CASE("lex: a lexing error names the byte offset, exit 2, tokens before it are printed") {
  // The newline at byte 4 is no terminal of if_else.lark.
  const std::string text = "if x\nthen";
  for (const char* chunk : {"100", "1"}) {
    INFO("--chunk " << chunk);
    const GlrmaskRun run =
        run_glrmask_args({"lex", cli_fixture("if_else.lark"), "-", "--chunk", chunk}, &text);
    CHECK(run.exit_code == 2);
    CHECK(lines_of(run.out) == std::vector<std::string>{"IF\t0\t2\tif", "NAME\t3\t4\tx"});
    CHECK_THAT(run.err, Catch::StartsWith("glrmask lex: -: lexer error at byte offset 4:"));
    CHECK(lines_of(run.err).size() == 1);
  }
}

TEST_CASE("a malformed grammar: file:line:col: message on one line, exit 2, for every command") {
  // unbalanced.lark opens a group at line 3, column 7 and never closes it.
  const std::string grammar = cli_fixture("unbalanced.lark");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lex", grammar, cli_fixture("if_else.txt")},
        std::vector<std::string>{"conflicts", grammar},
        std::vector<std::string>{"stats", grammar}}) {
    INFO(args[0]);
    const GlrmaskRun run = run_glrmask_args(args);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("glrmask " + args[0] + ": " + grammar + ":3:7: "));
    CHECK_THAT(run.err, Catch::Contains("'('"));
    CHECK(lines_of(run.err).size() == 1);
  }
}

TEST_CASE("bad command lines exit with code 2 and say why") {
  const std::string grammar = cli_fixture("if_else.lark");
  const std::string input = cli_fixture("if_else.txt");
  const auto fails_with = [](const std::vector<std::string>& args, const std::string& message) {
    INFO(args[0] << " ... expecting: " << message);
    const GlrmaskRun run = run_glrmask_args(args);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains(message));
  };
  fails_with({"lex", grammar, "/nonexistent/input.txt"},
             "/nonexistent/input.txt: cannot open the file: No such file or directory");
  fails_with({"stats", "/nonexistent/grammar.lark"}, "/nonexistent/grammar.lark");
  fails_with({"conflicts", "/nonexistent/grammar.lark"}, "/nonexistent/grammar.lark");
  fails_with({"lex", grammar, input, "--bogus"}, "unknown option --bogus");
  fails_with({"stats", grammar, "--bogus=1"}, "unknown option --bogus");
  fails_with({"conflicts", grammar, "--policy", "yacc"},
             "option --policy: unknown policy 'yacc' (expected glr or lark)");
  fails_with({"conflicts", grammar, "--policy", "glr", "--policy", "lark"},
             "option --policy given twice");
  // Options a command has no use for are unknown to it, not silently ignored.
  fails_with({"lex", grammar, input, "--policy", "lark"}, "unknown option --policy");
  fails_with({"conflicts", grammar, "--skippable", "ELSE"}, "unknown option --skippable");
  fails_with({"lex", grammar, input, "--chunk", "0"},
             "option --chunk: expected an integer >= 1, got");
  fails_with({"lex", grammar, input, "--chunk", "4k"},
             "option --chunk: expected an integer >= 1, got");
  fails_with({"parse", grammar, input, "--trees", "2x"},
             "option --trees: expected an integer >= 0, got '2x'");
  fails_with({"lex", grammar, input, "--start"}, "option --start needs a value");
  fails_with({"lex", grammar, input, "--start", "nowhere"}, "nowhere");
  fails_with({"lex", grammar}, "usage: glrmask lex GRAMMAR FILE");
  fails_with({"stats", grammar, input}, "usage: glrmask stats GRAMMAR");
}

}  // namespace
}  // namespace glrmask::testing
