// The all-terminals DFA: minimal size, accept labels and tie rules, per-state facts, and the
// errors of compile_lexer_dfa.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lib/core/error.h"
#include "tests/support/lexer_spec_fixtures.h"

namespace glrmask::lexer {
namespace {

using testing::go_terminals;
using testing::literal;
using testing::pattern;

uint32_t run(const LexerDfa& dfa, std::string_view text) {
  uint32_t state = dfa.start_state();
  for (char c : text) state = dfa.next(state, static_cast<uint8_t>(c));
  return state;
}

std::vector<std::string> names(const LexerDfa& dfa, std::span<const uint32_t> terminals) {
  std::vector<std::string> out;
  for (uint32_t t : terminals) out.push_back(dfa.terminals()[t].name);
  return out;
}

using Names = std::vector<std::string>;

TEST_CASE("minimization reaches the textbook state counts") {
  // [a-z]+ : start, "in a word", dead.
  CHECK(compile_lexer_dfa(std::vector{pattern("W", "[a-z]+")}).num_states() == 3);
  // (a|b)*abb : the Dragon Book's minimal DFA has 4 states; plus the dead state, plus the start
  // state kept apart from the state after "b" (which the textbook merges with it).
  CHECK(compile_lexer_dfa(std::vector{pattern("T", "(a|b)*abb")}).num_states() == 6);
  // Keywords over identifiers: start, i, if, in, int, other identifier, dead. The keyword states
  // stay apart from the identifier state because their labels differ.
  const LexerDfa keywords = compile_lexer_dfa(std::vector{
      pattern("NAME", "[a-z]+"), literal("IF", "if"), literal("IN", "in"), literal("INT", "int")});
  CHECK(keywords.num_states() == 7);
  CHECK(keywords.stats().subset_states >= keywords.num_states());
  // Two spellings of one language end up as one automaton.
  CHECK(compile_lexer_dfa(std::vector{pattern("A", "(?:ab|a)(?:b)*")}).num_states() ==
        compile_lexer_dfa(std::vector{pattern("A", "ab*")}).num_states());
}

TEST_CASE("the start state is never merged with a state inside a lexeme") {
  // The session and the Terminal DWA read "in the start state" as "between lexemes"
  // (docs/glr.md). For /a*b/ the state after "a" accepts exactly what the start state accepts;
  // a plain minimization would merge them and a pending "a" would look like a boundary.
  const LexerDfa dfa = compile_lexer_dfa(std::vector{pattern("X", "a*b")});
  CHECK(run(dfa, "a") != dfa.start_state());
  CHECK(run(dfa, "aaa") == run(dfa, "a"));
  CHECK(run(dfa, "ab") != LexerDfa::kDeadState);
  const LexerDfa textbook = compile_lexer_dfa(std::vector{pattern("T", "(a|b)*abb")});
  CHECK(run(textbook, "b") != textbook.start_state());
  CHECK(run(textbook, "abb") != run(textbook, "b"));
}

TEST_CASE("the dead state is 0 and absorbs everything") {
  const LexerDfa dfa = compile_lexer_dfa(go_terminals());
  for (int b = 0; b < 256; ++b) CHECK(dfa.next(LexerDfa::kDeadState, static_cast<uint8_t>(b)) == 0);
  CHECK(dfa.label(LexerDfa::kDeadState) == LexerDfa::kNoLabel);
  CHECK(dfa.start_state() != LexerDfa::kDeadState);
  CHECK(run(dfa, "@") == LexerDfa::kDeadState);
  // Invalid UTF-8 never matches, even where `.` would take any character.
  CHECK(run(dfa, "'\xff") == LexerDfa::kDeadState);
  CHECK(run(dfa, "'\xc3\xa9") != LexerDfa::kDeadState);       // 'é
  CHECK(run(dfa, "\"\xed\xa0\x80") == LexerDfa::kDeadState);  // an encoded surrogate
}

TEST_CASE("accept labels apply the tie rules") {
  const LexerDfa dfa = compile_lexer_dfa(std::vector{
      pattern("NAME", "[a-z]+"), literal("IF", "if"),
      pattern("IFISH", "if"),  // a pattern: the literal beats it at equal priority
      pattern("NUM", "[0-9]+"),
      pattern("DIGITS", "[0-9]+"),  // same priority, both patterns: both stay
      pattern("ZERO", "0", "", 1),  // higher priority wins the tie on "0" only
      literal("LOWKW", "do"), pattern("DOISH", "do", "", 1),  // priority beats the literal rule
  });
  CHECK(dfa.describe_label(dfa.label(run(dfa, "if"))) == "IF");
  CHECK(dfa.describe_label(dfa.label(run(dfa, "ifx"))) == "NAME");
  CHECK(dfa.describe_label(dfa.label(run(dfa, "12"))) == "NUM|DIGITS");
  CHECK(dfa.describe_label(dfa.label(run(dfa, "0"))) == "ZERO");
  CHECK(dfa.describe_label(dfa.label(run(dfa, "00"))) == "NUM|DIGITS");
  CHECK(dfa.describe_label(dfa.label(run(dfa, "do"))) == "DOISH");
  const auto tie = dfa.label_terminals(dfa.label(run(dfa, "7")));
  CHECK(names(dfa, tie) == Names{"NUM", "DIGITS"});
}

TEST_CASE("ignored labels, final states and viable terminals") {
  const LexerDfa dfa = compile_lexer_dfa(go_terminals());
  CHECK(dfa.label_is_ignored(dfa.label(run(dfa, " "))));
  CHECK_FALSE(dfa.label_is_ignored(dfa.label(run(dfa, "x"))));
  CHECK(dfa.is_final(run(dfa, "(")));
  CHECK(dfa.is_final(run(dfa, "&^=")));
  CHECK_FALSE(dfa.is_final(run(dfa, ".")));  // could become "..." or ".5"
  CHECK_FALSE(dfa.is_final(run(dfa, "x")));
  CHECK(names(dfa, dfa.viable_terminals(run(dfa, "'"))) == Names{"CHAR_LIT"});
  CHECK(names(dfa, dfa.viable_terminals(run(dfa, "0"))) ==
        Names{"DECIMAL_LIT", "HEX_LIT", "OCTAL_LIT", "BINARY_LIT", "FLOAT_LIT"});
  CHECK(names(dfa, dfa.viable_terminals(run(dfa, ".."))) == Names{"__ANON_16"});
  CHECK(dfa.viable_terminals(LexerDfa::kDeadState).empty());
  // Every terminal is viable from the start.
  CHECK(dfa.viable_terminals(dfa.start_state()).size() == dfa.terminals().size());
  const LexerDfaStats& stats = dfa.stats();
  CHECK(stats.terminals == dfa.terminals().size());
  CHECK(stats.states == dfa.num_states());
  CHECK(stats.nfa_states > 0);
  CHECK(stats.byte_classes <= 256);
}

TEST_CASE("compile errors name the terminal and its origin") {
  auto error_of = [](std::vector<TerminalSpec> specs, LexerDfaLimits limits = {}) {
    try {
      compile_lexer_dfa(specs, limits);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_of({pattern("A", "a"), pattern("B", "x*")}) ==
        "fixture:B: terminal B: /x*/ matches the empty string; a lexer terminal must consume at "
        "least one character");
  CHECK_THAT(error_of({pattern("A", "a"), pattern("A", "b")}),
             Catch::Contains("duplicate terminal name (first defined at fixture:A)"));
  CHECK_THAT(error_of({}), Catch::Contains("no terminals"));
  CHECK_THAT(error_of({pattern("STRING", R"("(?!"x).*?")")}),
             Catch::Contains("fixture:STRING: terminal STRING: regex column 2: regex lookaround"));
  CHECK_THAT(error_of({pattern("A", "a"), pattern("F", "a", "q")}),
             Catch::Contains("fixture:F: terminal F: unknown regex flag"));
  // The subset construction blows up on "the 13th byte from the end is an a": the error names it.
  LexerDfaLimits small;
  small.max_dfa_states = 1000;
  CHECK_THAT(error_of({pattern("OK", "[a-z]+"), pattern("BIG", "(?:a|b)*a(?:a|b){12}c")}, small),
             Catch::Contains("fixture:BIG: terminal BIG: /(?:a|b)*a(?:a|b){12}c/ needs more than "
                             "1000 DFA states"));
  // Nested counted repetitions: states that hold hundreds of threads each. a{1,900}b needs about
  // 900 states, within the budget, but their threads exceed 64 per state of it (64,000).
  CHECK(error_of({pattern("FLAT", "a{1,900}b")}, small).empty());
  CHECK_THAT(error_of({pattern("NEST", "((a{1,30}){1,30})b")}, small),
             Catch::Contains("fixture:NEST: terminal NEST:") &&
                 Catch::Contains("needs more than 1000 DFA states, or 64000 NFA threads in them"));
  LexerDfaLimits tiny_nfa;
  tiny_nfa.max_nfa_states = 100;
  CHECK_THAT(error_of({pattern("LONG", "\\w{50}")}, tiny_nfa),
             Catch::Contains("fixture:LONG: terminal LONG: regex expands to more than 100"));
}

}  // namespace
}  // namespace glrmask::lexer
