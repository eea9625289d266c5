// Terminals with leading lookaheads (lexer/regex/lookahead_conjunction.h): the intersection and
// difference of prefix-free languages, compared on every short string against the definition,
// and the refusals (a part whose match can be a prefix of another's, the empty string).
#include "lexer/regex/lookahead_conjunction.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lib/core/error.h"
#include "tests/support/lexer_spec_fixtures.h"

namespace glrmask::lexer {
namespace {

using testing::pattern;

bool matches(const LexerDfa& dfa, std::string_view text) {
  uint32_t state = dfa.start_state();
  for (char c : text) state = dfa.next(state, static_cast<uint8_t>(c));
  return state != LexerDfa::kDeadState && dfa.label(state) != LexerDfa::kNoLabel;
}

// Every quoted string of at most `length` characters over `alphabet`.
std::vector<std::string> quoted_strings(const std::string& alphabet, std::size_t length) {
  std::vector<std::string> out = {"\"\""};
  std::vector<std::string> layer = {""};
  for (std::size_t n = 1; n <= length; ++n) {
    std::vector<std::string> next;
    for (const std::string& prefix : layer)
      for (char c : alphabet) next.push_back(prefix + c);
    for (const std::string& s : next) out.push_back("\"" + s + "\"");
    layer = std::move(next);
  }
  return out;
}

TEST_CASE("leading lookaheads intersect and subtract prefix-free languages exactly") {
  struct Case {
    std::string regex;
    bool (*contains)(const std::string& content);
  };
  const std::vector<Case> cases = {
      // A length bound beside a pattern: at most 3 characters that hold an 'a'.
      {R"re((?="[ab]{0,3}")"[ab]*a[ab]*")re",
       [](const std::string& c) { return c.size() <= 3 && c.find('a') != std::string::npos; }},
      // Any string but two names.
      {R"re((?!"ab"|"b")"[ab]*")re", [](const std::string& c) { return c != "ab" && c != "b"; }},
      // Both: starts with 'a', not "aa", at least 2 characters.
      {R"re((?="a[ab]*")(?!"aa")"[ab]{2,}")re",
       [](const std::string& c) { return c.size() >= 2 && c[0] == 'a' && c != "aa"; }},
      // A union of terms (disjoint key regions).
      {R"re((?="a[ab]*")(?!"ab")"[ab]+"|(?!"[ab]*a[ab]*")"[ab]*")re",
       [](const std::string& c) {
         return (!c.empty() && c[0] == 'a' && c != "ab") || c.find('a') == std::string::npos;
       }},
  };
  for (const Case& c : cases) {
    INFO(c.regex);
    const LexerDfa dfa = compile_lexer_dfa(std::vector{pattern("S", c.regex)});
    for (const std::string& text : quoted_strings("ab", 5)) {
      INFO(text);
      CHECK(matches(dfa, text) == c.contains(text.substr(1, text.size() - 2)));
    }
    CHECK_FALSE(matches(dfa, "ab"));
  }
}

TEST_CASE("a lookahead terminal is one terminal among others, keeping the tie rules") {
  const LexerDfa dfa =
      compile_lexer_dfa(std::vector{pattern("KEY", R"re((?!"id")"[a-z]*")re"),
                                    pattern("ID", R"("id")"), pattern("NUM", "[0-9]+")});
  uint32_t state = dfa.start_state();
  for (char c : std::string("\"id\"")) state = dfa.next(state, static_cast<uint8_t>(c));
  REQUIRE(dfa.label(state) != LexerDfa::kNoLabel);
  CHECK(dfa.label_terminals(dfa.label(state)).size() == 1);
  CHECK(dfa.terminals()[dfa.label_terminals(dfa.label(state))[0]].name == "ID");
  CHECK(matches(dfa, "\"idx\""));
  CHECK(matches(dfa, "42"));
}

TEST_CASE("lookahead terms are refused where Python would read them differently") {
  using Catch::Matchers::Contains;
  auto error = [](const std::string& regex) {
    try {
      compile_lexer_dfa(std::vector{pattern("T", regex)});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // "a" is a prefix of "ab": Python's (?=a) would succeed on the text "ab..." whatever follows.
  CHECK_THAT(error("(?=a)a[b]*"), Contains("terminal T") && Contains("prefix"));
  CHECK_THAT(error("(?!x)x*"), Contains("prefix") || Contains("empty string"));
  // An empty intersection is a terminal that never matches, not an error.
  CHECK(error(R"re((?="a")"b")re").empty());
  const LexerDfa never =
      compile_lexer_dfa(std::vector{pattern("E", R"re((?="a")"b")re"), pattern("B", R"re("b")re")});
  CHECK(matches(never, "\"b\""));
  CHECK(never.viable_terminals(never.start_state()).size() == 1);
  CHECK_THAT(error(R"re((?="a")re"), Contains("unterminated"));
  CHECK_THAT(error(R"re((?i)(?="a")"a")re"), Contains("flags"));
  // Not a leading lookahead: the ordinary parser still refuses lookaround elsewhere.
  CHECK_THAT(error(R"(a(?=b)b)"), Contains("lookaround"));
  CHECK_FALSE(split_lookahead_terms("a|b(?=c)", "", "t"));
}

}  // namespace
}  // namespace glrmask::lexer
