// The streaming lexer: maximal munch with fall-back, ties, ignored terminals, chunking, errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "tests/support/lexer_spec_fixtures.h"
#include "tests/support/test_support.h"

namespace glrmask::lexer {
namespace {

using testing::go_terminals;
using testing::json_terminals;
using testing::literal;
using testing::pattern;
using testing::sql_terminals;

// "NAME:text" for each lexeme, alternatives joined by '|'.
std::vector<std::string> render(const LexerDfa& dfa, std::string_view text,
                                const std::vector<Lexeme>& lexemes) {
  std::vector<std::string> out;
  for (const Lexeme& lexeme : lexemes) {
    out.push_back(dfa.describe_label(lexeme.label) + ":" +
                  std::string(text.substr(lexeme.begin, lexeme.end - lexeme.begin)));
  }
  return out;
}

std::vector<std::string> lex(const LexerDfa& dfa, std::string_view text,
                             bool keep_ignored = false) {
  return render(dfa, text, lex_text(dfa, text, keep_ignored));
}

std::vector<Lexeme> lex_in_chunks(const LexerDfa& dfa, std::string_view text,
                                  const std::vector<size_t>& cuts, bool keep_ignored = false) {
  StreamingLexer lexer(dfa, keep_ignored);
  std::vector<Lexeme> lexemes;
  size_t begin = 0;
  for (size_t cut : cuts) {
    lexer.feed(text.substr(begin, cut - begin), lexemes);
    begin = cut;
  }
  lexer.feed(text.substr(begin), lexemes);
  lexer.finish(lexemes);
  return lexemes;
}

bool same_lexemes(const std::vector<Lexeme>& a, const std::vector<Lexeme>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].label != b[i].label || a[i].begin != b[i].begin || a[i].end != b[i].end) {
      return false;
    }
  }
  return true;
}

const LexerDfa& go_dfa() {
  static const LexerDfa dfa = compile_lexer_dfa(go_terminals());
  return dfa;
}

using Lexemes = std::vector<std::string>;

TEST_CASE("fall-back re-lexes the bytes after the last accepted prefix") {
  const LexerDfa& dfa = go_dfa();
  // `..` is a prefix of `...` but not a lexeme: `.` is emitted and lexing resumes after it.
  CHECK(lex(dfa, "..x") == Lexemes{"DOT:.", "DOT:.", "NAME:x"});
  CHECK(lex(dfa, "a...") == Lexemes{"NAME:a", "__ANON_16:..."});
  CHECK(lex(dfa, "....") == Lexemes{"__ANON_16:...", "DOT:."});
  CHECK(lex(dfa, "x.5") == Lexemes{"NAME:x", "FLOAT_LIT:.5"});
  CHECK(lex(dfa, "&^=&^&") == Lexemes{"__ANON_13:&^=", "__ANON_19:&^", "AMPERSAND:&"});
}

TEST_CASE("a lazy terminal ends at its first possible end") {
  const LexerDfa& dfa = go_dfa();
  // Go's string terminal /".*?"/ stops at the first closing quote.
  CHECK(lex(dfa, R"("a" + "b")") ==
        Lexemes{R"(INTERPRETED_STRING_LIT:"a")", "PLUS:+", R"(INTERPRETED_STRING_LIT:"b")"});
  CHECK(lex(dfa, "`x\"y`+``") == Lexemes{"RAW_STRING_LIT:`x\"y`", "PLUS:+", "RAW_STRING_LIT:``"});
}

TEST_CASE("equal-length ties: priority, then literal over pattern, then all of them") {
  const LexerDfa& dfa = go_dfa();
  // Keyword literal beats the NAME pattern on the same lexeme, not on a longer one.
  CHECK(lex(dfa, "func funcs") == Lexemes{"FUNC:func", "NAME:funcs"});
  // HEX_LIT (priority 2) and DECIMAL_LIT both match "0"? No: "0x" only matches HEX_LIT; but "0"
  // alone is DECIMAL_LIT, and "1.5e3" is FLOAT_LIT by length.
  CHECK(lex(dfa, "0x1F 0 1.5e3 07") == Lexemes{"HEX_LIT:0x1F", "DECIMAL_LIT:0", "FLOAT_LIT:1.5e3",
                                               "DECIMAL_LIT:0", "DECIMAL_LIT:7"});

  const std::vector<TerminalSpec> specs = {
      pattern("LOW", "[a-z]+"), pattern("HIGH", "ab", "", 1), pattern("WORD", "[a-z]+"),
      literal("KW", "if"),      pattern("IFISH", "i[a-z]"),   pattern("SPACE", " ", "", 0, true),
  };
  const LexerDfa ties = compile_lexer_dfa(specs);
  // "ab": HIGH has the higher priority. "abc": only LOW and WORD reach that length: both stay.
  CHECK(lex(ties, "ab abc if") == Lexemes{"HIGH:ab", "LOW|WORD:abc", "KW:if"});
}

TEST_CASE("ignored terminals take part in longest match and are dropped") {
  const LexerDfa& dfa = go_dfa();
  CHECK(lex(dfa, "a \t b") == Lexemes{"NAME:a", "NAME:b"});
  CHECK(lex(dfa, "a \\\n b", /*keep_ignored=*/true) ==
        Lexemes{"NAME:a", "__IGNORE_0: ", "__IGNORE_1:\\\n", "__IGNORE_0: ", "NAME:b"});
  const LexerDfa json = compile_lexer_dfa(json_terminals());
  CHECK(lex(json, "{ \"a\" : [1, -2.5e3, \"\"] }") ==
        Lexemes{"LBRACE:{", "NONEMPTY_STRING:\"a\"", "COLON::", "LSQB:[", "SIGNED_NUMBER:1",
                "COMMA:,", "SIGNED_NUMBER:-2.5e3", "COMMA:,", "EMPTY_STRING:\"\"", "RSQB:]",
                "RBRACE:}"});
}

TEST_CASE("longest match beats priority across lengths (unlike Lark's ordered alternation)") {
  const LexerDfa sql = compile_lexer_dfa(sql_terminals());
  // SELECT_CONSTRAINT (priority 9) matches "ALL", but CNAME matches the longer "ALLOWED".
  CHECK(lex(sql, "select ALLOWED from t") ==
        Lexemes{"SELECT:select", "CNAME:ALLOWED", "FROM:from", "CNAME:t"});
  CHECK(lex(sql, "SELECT ALL count(x) FROM t LEFT OUTER JOIN u") ==
        Lexemes{"SELECT:SELECT", "SELECT_CONSTRAINT:ALL", "AGGREGATION:count(", "CNAME:x", "RPAR:)",
                "FROM:FROM", "CNAME:t", "JOIN_EXPR:LEFT OUTER JOIN", "CNAME:u"});
  // The empty OUTER alternative lets JOIN_EXPR start with whitespace: longer than WS alone.
  CHECK(lex(sql, "t  join u") == Lexemes{"CNAME:t", "JOIN_EXPR:  join", "CNAME:u"});
  CHECK(lex(sql, R"(WHERE a = "x\"y" -- note)") ==
        Lexemes{"WHERE:WHERE", "CNAME:a", "EQUAL:=", R"(ESCAPED_STRING:"x\"y")"});
}

TEST_CASE("lexemes are emitted as soon as they are final") {
  const LexerDfa& dfa = go_dfa();
  StreamingLexer lexer(dfa);
  std::vector<Lexeme> lexemes;
  lexer.feed("x", lexemes);
  CHECK(lexemes.empty());  // NAME could still grow
  lexer.feed("(", lexemes);
  REQUIRE(lexemes.size() == 2);  // "x" ended when "(" arrived; "(" can never grow
  CHECK(dfa.describe_label(lexemes[1].label) == "LPAR");
  lexer.feed(".", lexemes);
  CHECK(lexemes.size() == 2);  // "." might become "..."
  CHECK(lexer.configuration().pending.empty());
  lexer.feed(".", lexemes);
  CHECK(lexemes.size() == 2);
  CHECK(lexer.configuration().pending == ".");  // bytes after the accepted "."
  lexer.feed(")", lexemes);
  CHECK(render(dfa, "x(..)", lexemes) == Lexemes{"NAME:x", "LPAR:(", "DOT:.", "DOT:.", "RPAR:)"});
}

TEST_CASE("configurations are values: equal situations compare and hash equal") {
  const LexerDfa& dfa = go_dfa();
  std::vector<EmittedLexeme> sink;
  LexerConfiguration a = initial_configuration(dfa);
  LexerConfiguration b = initial_configuration(dfa);
  REQUIRE_FALSE(feed(dfa, a, "foo(x..", sink));
  REQUIRE_FALSE(feed(dfa, b, "bar(", sink));
  REQUIRE_FALSE(feed(dfa, b, "y.", sink));
  REQUIRE_FALSE(feed(dfa, b, ".", sink));
  CHECK(a == b);
  CHECK(LexerConfigurationHash{}(a) == LexerConfigurationHash{}(b));
  LexerConfiguration c = initial_configuration(dfa);
  REQUIRE_FALSE(feed(dfa, c, "y.", sink));
  CHECK_FALSE(a == c);
}

TEST_CASE("errors name the byte offset and what was expected") {
  const LexerDfa& dfa = go_dfa();
  CHECK_THROWS_WITH(lex_text(dfa, "x := @"),
                    Catch::Contains("byte offset 5") && Catch::Contains("no terminal starts"));
  CHECK_THROWS_WITH(lex_text(dfa, "x = 'ab'"), Catch::Contains("byte offset 6") &&
                                                   Catch::Contains("began at byte offset 4") &&
                                                   Catch::Contains("CHAR_LIT"));
  CHECK_THROWS_WITH(lex_text(dfa, "s := \"abc"), Catch::Contains("byte offset 9 (end of input)") &&
                                                     Catch::Contains("began at byte offset 5") &&
                                                     Catch::Contains("INTERPRETED_STRING_LIT"));
  // Fed in pieces, the offsets are still absolute.
  StreamingLexer lexer(dfa);
  std::vector<Lexeme> lexemes;
  lexer.feed("s := \"a", lexemes);
  lexer.feed("bc", lexemes);
  CHECK_THROWS_WITH(lexer.finish(lexemes), Catch::Contains("byte offset 9 (end of input)") &&
                                               Catch::Contains("began at byte offset 5"));
}

// Lexes `text` in one chunk, byte by byte and in random chunks; all three must agree, including on
// the error message when the text does not lex.
void check_chunking_invariance(const LexerDfa& dfa, std::string_view text, std::mt19937& random) {
  auto outcome = [&](const std::vector<size_t>& cuts) {
    std::string error;
    std::vector<Lexeme> lexemes;
    try {
      lexemes = lex_in_chunks(dfa, text, cuts, /*keep_ignored=*/true);
    } catch (const Error& e) {
      error = e.what();
    }
    return std::pair{lexemes, error};
  };
  const auto [whole, whole_error] = outcome({});
  std::vector<size_t> every_byte;
  for (size_t i = 1; i < text.size(); ++i) every_byte.push_back(i);
  const auto [bytewise, bytewise_error] = outcome(every_byte);
  std::vector<size_t> random_cuts;
  for (size_t i = 1; i < text.size(); ++i) {
    if (random() % 7 == 0) random_cuts.push_back(i);
  }
  const auto [chunked, chunked_error] = outcome(random_cuts);
  CHECK(same_lexemes(whole, bytewise));
  CHECK(same_lexemes(whole, chunked));
  CHECK(whole_error == bytewise_error);
  CHECK(whole_error == chunked_error);
  if (whole_error.empty()) {
    // With ignored lexemes kept, the lexemes tile the text exactly.
    uint64_t position = 0;
    for (const Lexeme& lexeme : whole) {
      CHECK(lexeme.begin == position);
      CHECK(lexeme.end > lexeme.begin);
      position = lexeme.end;
    }
    CHECK(position == text.size());
  }
}

TEST_CASE("one chunk, byte by byte and random chunks give the same lexemes") {
  std::mt19937 random(7);
  const LexerDfa& go = go_dfa();
  const LexerDfa json = compile_lexer_dfa(json_terminals());
  const LexerDfa sql = compile_lexer_dfa(sql_terminals());
  const std::string go_text =
      "package main\n\nimport \"fmt\"\n\n// Sum adds.\nfunc Sum(xs []int) (s int) {\n"
      "\tfor _, x := range xs {\n\t\ts += x &^ 0x0F // mask\n\t}\n\treturn s...\n}\n";
  check_chunking_invariance(go, go_text, random);
  check_chunking_invariance(go, "a..b....c", random);
  // Longer than the lexer's internal slice (16 KiB), with a lexeme across the slice boundary.
  std::string long_text = "s := \"" + std::string(20000, 'a') + "\"\n";
  for (int i = 0; i < 800; ++i) long_text += "x.y(" + std::to_string(i) + ")...\n";
  check_chunking_invariance(go, long_text, random);
  check_chunking_invariance(go, "x := 'ab'", random);  // an error, found at the same place
  check_chunking_invariance(go, "s := \"unterminated", random);
  check_chunking_invariance(json, R"({"a": [1.5e-3, true, null, "", -0]})", random);
  check_chunking_invariance(sql, "SELECT count(x), 'it''s' FROM t -- c\nWHERE a <= 1.5", random);

  if (!testing::require_data_dir("streaming lexer on the Go corpus"))
    return glrmask::testing::skip_test_case();
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() / "programs" / "go")) {
    if (entry.path().extension() != ".go") continue;
    INFO(entry.path().filename().string());
    check_chunking_invariance(go, testing::read_file(entry.path()), random);
    ++files;
  }
  CHECK(files > 0);
}

TEST_CASE("a string's (?!\"\") guard holds \"\" back until the byte after it") {
  // SynCode's Python STRING and LONG_STRING: `""` is a STRING except where a third `"` follows,
  // which makes it the start of a LONG_STRING (Python's re refuses the STRING match there).
  const std::vector<TerminalSpec> specs = {
      pattern("STRING", R"("(?!"").*?")", "s"), pattern("LONG_STRING", R"(""".*?""")", "s"),
      pattern("NAME", "[a-z]+"), pattern("SPACE", " ", "", 0, true)};
  const LexerDfa dfa = compile_lexer_dfa(specs);
  CHECK(lex(dfa, R"("" x)") == Lexemes{R"(STRING:"")", "NAME:x"});
  CHECK(lex(dfa, R"("")") == Lexemes{R"(STRING:"")"});
  CHECK(lex(dfa, R"("""a""")") == Lexemes{R"(LONG_STRING:"""a""")"});
  CHECK(lex(dfa, R"("""""")") == Lexemes{R"(LONG_STRING:"""""")"});
  CHECK(lex(dfa, R"("a" "" "b")") == Lexemes{R"(STRING:"a")", R"(STRING:"")", R"(STRING:"b")"});
  // Not a STRING `""` then an unclosed `"`: the text is an unclosed LONG_STRING.
  CHECK_THROWS_WITH(lex_text(dfa, R"(x """)"),
                    Catch::Contains("began at byte offset 2") && Catch::Contains("LONG_STRING"));
  std::mt19937 random(11);
  check_chunking_invariance(dfa, R"("" """a"b""" "" x "")", random);
  check_chunking_invariance(dfa, R"(""""")", random);
}

}  // namespace
}  // namespace glrmask::lexer
