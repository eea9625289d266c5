// Detection of unbounded fall-back buffers, and that the lexer still handles them.
#include "lexer/regex/fallback_analysis.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/streaming_lexer.h"
#include "tests/support/lexer_spec_fixtures.h"

namespace glrmask::lexer {
namespace {

using testing::go_terminals;
using testing::json_terminals;
using testing::literal;
using testing::pattern;

std::vector<TerminalSpec> c_like_terminals() {
  return {literal("SLASH", "/"), literal("STAR", R"(\*)"),
          pattern("C_COMMENT", R"(/\*(.|\n)*?\*/)"), pattern("NAME", "[a-z]+"),
          pattern("WS", "[ \n]+", "", 0, true)};
}

TEST_CASE("a comment that begins like an operator makes the fall-back unbounded") {
  const LexerDfa dfa = compile_lexer_dfa(c_like_terminals());
  const std::vector<UnboundedFallback> reports = find_unbounded_fallbacks(dfa);
  REQUIRE(reports.size() == 1);
  const UnboundedFallback& report = reports[0];
  CHECK(dfa.describe_label(report.accepted) == "SLASH");
  REQUIRE(report.extending_terminals.size() == 1);
  CHECK(dfa.terminals()[report.extending_terminals[0]].name == "C_COMMENT");
  // The example really behaves as reported: its accepted prefix is SLASH, and the DFA stays
  // alive and non-accepting through the rest, including many repetitions of the cycle.
  REQUIRE(report.accepted_length < report.cycle_begin);
  REQUIRE(report.cycle_begin < report.example.size());
  CHECK(report.example.substr(0, report.accepted_length) == "/");
  std::string text = report.example;
  const std::string cycle = report.example.substr(report.cycle_begin);
  for (int i = 0; i < 100; ++i) text += cycle;
  uint32_t state = dfa.start_state();
  for (size_t i = 0; i < text.size(); ++i) {
    state = dfa.next(state, static_cast<uint8_t>(text[i]));
    REQUIRE(state != LexerDfa::kDeadState);
    if (i + 1 == report.accepted_length) {
      CHECK(dfa.label(state) != LexerDfa::kNoLabel);
    } else if (i + 1 > report.accepted_length) {
      CHECK(dfa.label(state) == LexerDfa::kNoLabel);
    }
  }
  CHECK_THAT(describe(dfa, report), Catch::Contains("after SLASH \"/\"") &&
                                        Catch::Contains("C_COMMENT") &&
                                        Catch::Contains("unbounded"));

  // Supported anyway: the pending bytes grow, and the text lexes correctly once it resolves.
  StreamingLexer lexer(dfa);
  std::vector<Lexeme> lexemes;
  lexer.feed("a /* b", lexemes);
  for (int i = 0; i < 1000; ++i) lexer.feed(" c", lexemes);
  CHECK(lexemes.size() == 1);                           // only "a": the comment may still close
  CHECK(lexer.configuration().pending.size() == 2003);  // "* b" and the rest
  lexer.feed(" */ d", lexemes);
  lexer.finish(lexemes);
  REQUIRE(lexemes.size() == 3);
  CHECK(dfa.describe_label(lexemes[1].label) == "C_COMMENT");
  // Never closed: the fall-back re-lexes everything after the "/".
  const std::vector<Lexeme> unclosed = lex_text(dfa, "a /* b c");
  std::vector<std::string> labels;
  for (const Lexeme& lexeme : unclosed) labels.push_back(dfa.describe_label(lexeme.label));
  CHECK(labels == std::vector<std::string>{"NAME", "SLASH", "STAR", "NAME", "NAME"});
}

TEST_CASE("Go: a leading zero waits for a float that may never come") {
  // "0" is DECIMAL_LIT; "00", "000", ... are not, but "000.5" is a FLOAT_LIT. Go's `..` also
  // waits for a third dot, but at most two bytes: it is not reported.
  const LexerDfa dfa = compile_lexer_dfa(go_terminals());
  const std::vector<UnboundedFallback> reports = find_unbounded_fallbacks(dfa);
  REQUIRE(reports.size() == 1);
  CHECK(dfa.describe_label(reports[0].accepted) == "DECIMAL_LIT");
  REQUIRE(reports[0].extending_terminals.size() == 1);
  CHECK(dfa.terminals()[reports[0].extending_terminals[0]].name == "FLOAT_LIT");
  CHECK(reports[0].example.substr(0, reports[0].accepted_length) == "0");
  const std::vector<Lexeme> zeros = lex_text(dfa, "0000");
  CHECK(zeros.size() == 4);
  const std::vector<Lexeme> float_literal = lex_text(dfa, "0000.5");
  REQUIRE(float_literal.size() == 1);
  CHECK(dfa.describe_label(float_literal[0].label) == "FLOAT_LIT");
}

TEST_CASE("bounded fall-backs are not reported") {
  CHECK(find_unbounded_fallbacks(compile_lexer_dfa(json_terminals())).empty());
  // Two terminals that never accept in the middle of each other.
  CHECK(find_unbounded_fallbacks(compile_lexer_dfa(std::vector{pattern("STRING", R"("[^"]*")"),
                                                               literal("DOT", R"(\.)")}))
            .empty());
}

TEST_CASE("each accepted label and extension is reported once") {
  // Both "a" and "ab" accept before an unbounded "x...y" tail: two accepted labels.
  const LexerDfa dfa = compile_lexer_dfa(
      std::vector{pattern("A", "a"), pattern("AB", "ab"), pattern("LONG", "ab?x+y")});
  const std::vector<UnboundedFallback> reports = find_unbounded_fallbacks(dfa);
  REQUIRE(reports.size() == 2);
  CHECK(dfa.describe_label(reports[0].accepted) != dfa.describe_label(reports[1].accepted));
  for (const UnboundedFallback& report : reports) {
    REQUIRE(report.extending_terminals.size() == 1);
    CHECK(dfa.terminals()[report.extending_terminals[0]].name == "LONG");
    CHECK(report.example.substr(report.cycle_begin) == "x");
  }
}

}  // namespace
}  // namespace glrmask::lexer
