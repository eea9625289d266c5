// The Python-regex parser: what it accepts, and the errors (construct, column, origin) for what a
// lexer cannot support or Python itself rejects.
#include "lexer/regex/regex_parser.h"

#include <catch2/catch.hpp>
#include <string>

#include "lib/core/error.h"

namespace glrmask::lexer {
namespace {

std::string error_of(std::string_view pattern, std::string_view flags = "") {
  try {
    parse_regex(pattern, flags, "g.lark:3:1: terminal T");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const RegexNode& root(const Regex& regex) {
  return regex.nodes[regex.root];
}

TEST_CASE("constructs a lexer cannot support are rejected by name, with origin and column") {
  CHECK(error_of(R"(a(?!b))") ==
        "g.lark:3:1: terminal T: regex column 2: regex lookaround (?!...) is not supported in "
        "/a(?!b)/");
  CHECK_THAT(error_of(R"(x(?=y))"), Catch::Contains("column 2: regex lookaround (?=...)"));
  CHECK_THAT(error_of(R"((?<=a)b)"), Catch::Contains("column 1: regex lookaround (?<=...)"));
  CHECK_THAT(error_of(R"(\\(?<!\\).*?""")"),
             Catch::Contains("column 3: regex lookaround (?<!...)"));
  // The two guards SynCode's Python strings use: one is redundant, the other becomes a vetoed
  // end (docs/lexer.md, "Lookaround"); other forms of it are refused.
  CHECK(error_of(R"("""(?<!\\).*?""")").empty());
  CHECK(error_of(R"("(?!"").*?")").empty());
  CHECK_THAT(error_of(R"("(?!"")a*")"), Catch::Contains("column 2: regex lookaround (?!...) is "
                                                        "supported only as q(?!qq).*?q"));
  CHECK_THAT(error_of(R"("(?!"").*?'")"), Catch::Contains("supported only as q(?!qq).*?q"));
  CHECK_THAT(error_of(R"((a)\1)"), Catch::Contains("column 4: regex backreference \\1"));
  CHECK_THAT(error_of(R"((?P<q>a)(?P=q))"), Catch::Contains("backreference (?P=name)"));
  CHECK_THAT(error_of("^a"), Catch::Contains("column 1: regex anchor ^"));
  CHECK_THAT(error_of("a$"), Catch::Contains("column 2: regex anchor $"));
  CHECK_THAT(error_of(R"(\bword)"), Catch::Contains("regex anchor \\b"));
  CHECK_THAT(error_of(R"(a\Z)"), Catch::Contains("column 2: regex anchor \\Z"));
  CHECK_THAT(error_of("(?(1)a|b)"), Catch::Contains("conditional group"));
  CHECK_THAT(error_of("(?>ab)"), Catch::Contains("atomic group"));
  CHECK_THAT(error_of("a++"), Catch::Contains("column 3: possessive quantifier ++"));
}

TEST_CASE("malformed patterns get Python's diagnosis") {
  CHECK_THAT(error_of("*a"), Catch::Contains("column 1: nothing to repeat"));
  CHECK_THAT(error_of("a**"), Catch::Contains("column 3: multiple repeat"));
  CHECK_THAT(error_of("a{3}{2}"), Catch::Contains("column 5: multiple repeat"));
  CHECK_THAT(error_of("(ab"), Catch::Contains("column 1: missing ), unterminated subpattern"));
  CHECK_THAT(error_of("ab)"), Catch::Contains("column 3: unbalanced parenthesis"));
  CHECK_THAT(error_of("[ab"), Catch::Contains("column 1: unterminated character set"));
  CHECK_THAT(error_of("[z-a]"), Catch::Contains("column 2: bad character range z-a"));
  CHECK_THAT(error_of(R"([\d-z])"), Catch::Contains("bad character range \\d-z"));
  CHECK_THAT(error_of("a{3,2}"), Catch::Contains("min repeat greater than max repeat"));
  CHECK_THAT(error_of(R"(\q)"), Catch::Contains("column 1: bad escape \\q"));
  CHECK_THAT(error_of(R"(\x4)"), Catch::Contains("incomplete escape \\x4"));
  CHECK_THAT(error_of(R"(\u12)"), Catch::Contains("incomplete escape \\u12"));
  CHECK_THAT(error_of(R"(\U00110000)"), Catch::Contains("bad escape \\U00110000"));
  CHECK_THAT(error_of(R"(\ud800)"), Catch::Contains("surrogate"));
  CHECK_THAT(error_of(R"(\777)"), Catch::Contains("octal escape value \\777 outside of range"));
  CHECK_THAT(error_of(R"(\N{NO SUCH CHARACTER})"), Catch::Contains("undefined character name"));
  CHECK_THAT(error_of("a(?i)b"), Catch::Contains("column 2: global flags not at the start"));
  CHECK_THAT(error_of("(?L)a"), Catch::Contains("'L' flag"));
  CHECK_THAT(error_of("(?z:a)"), Catch::Contains("column 3: unknown extension or flag"));
  CHECK_THAT(error_of("a", "q"), Catch::Contains("unknown regex flag 'q'"));
  CHECK_THAT(error_of("\xff"), Catch::Contains("byte offset 0: invalid UTF-8"));
  CHECK_THAT(error_of("a{1001}"), Catch::Contains("exceeds the supported maximum"));
  CHECK_THAT(error_of(std::string(300, '(') + std::string(300, ')')),
             Catch::Contains("nested too deeply"));
}

TEST_CASE("columns count code points, not bytes") {
  CHECK_THAT(error_of("∀x(?=y)"), Catch::Contains("column 3: regex lookaround"));
}

TEST_CASE("the parse tree keeps alternation order, laziness and counts") {
  const Regex alternation = parse_regex("ab|a|", "", "t");
  REQUIRE(root(alternation).kind == RegexKind::kAlternate);
  REQUIRE(root(alternation).children.size() == 3);
  CHECK(alternation.nodes[root(alternation).children[0]].kind == RegexKind::kConcat);
  CHECK(alternation.nodes[root(alternation).children[2]].kind == RegexKind::kEmpty);
  CHECK(alternation.min_length() == 0);

  const Regex lazy = parse_regex("x{2,5}?", "", "t");
  REQUIRE(root(lazy).kind == RegexKind::kRepeat);
  CHECK(root(lazy).min == 2);
  CHECK(root(lazy).max == 5);
  CHECK(root(lazy).lazy);
  CHECK(lazy.has_lazy_repeat());
  CHECK(lazy.min_length() == 2);

  const Regex open = parse_regex("x{3,}", "", "t");
  CHECK(root(open).max == RegexNode::kUnbounded);
  CHECK_FALSE(open.has_lazy_repeat());

  // `{` that does not start a valid count is a literal, as in Python.
  const Regex brace = parse_regex("x{,y", "", "t");
  CHECK(root(brace).kind == RegexKind::kConcat);
  CHECK(root(brace).children.size() == 4);
}

TEST_CASE("classes and escapes resolve to code point sets") {
  auto set_of = [](std::string_view pattern, std::string_view flags = "") {
    const Regex regex = parse_regex(pattern, flags, "t");
    REQUIRE(root(regex).kind == RegexKind::kCodePoints);
    return root(regex).code_points;
  };
  CHECK(set_of("[a-c]") == CodePointRanges{{'a', 'c'}});
  CHECK(set_of("[]a]") == CodePointRanges{{']', ']'}, {'a', 'a'}});
  CHECK(set_of("[a-]") == CodePointRanges{{'-', '-'}, {'a', 'a'}});
  CHECK(set_of(R"([\]\\])") == CodePointRanges{{'\\', ']'}});
  CHECK(set_of(R"([\b])") == CodePointRanges{{8, 8}});  // backspace inside a class
  CHECK(set_of(R"(\/)") == CodePointRanges{{'/', '/'}});
  CHECK(set_of(R"(\x41)") == CodePointRanges{{'A', 'A'}});
  CHECK(set_of(R"(\101)") == CodePointRanges{{'A', 'A'}});
  CHECK(set_of(R"(\0)") == CodePointRanges{{0, 0}});
  CHECK(set_of(R"(\u2200)") == CodePointRanges{{0x2200, 0x2200}});
  CHECK(set_of(R"(\N{FOR ALL})") == CodePointRanges{{0x2200, 0x2200}});
  CHECK(set_of("k", "i") == CodePointRanges{{'K', 'K'}, {'k', 'k'}, {0x212A, 0x212A}});
  CHECK(set_of("k", "ia") == CodePointRanges{{'K', 'K'}, {'k', 'k'}});
  CHECK(set_of(R"(\d)", "a") == CodePointRanges{{'0', '9'}});
  // `.` is every scalar value except \n (no surrogates: UTF-8 cannot encode them).
  CHECK(set_of(".") == CodePointRanges{{0, '\n' - 1}, {'\n' + 1, 0xD7FF}, {0xE000, 0x10FFFF}});
  CHECK(set_of(".", "s") == CodePointRanges{{0, 0xD7FF}, {0xE000, 0x10FFFF}});
  CHECK(set_of("[^\\s\\S]").empty());
  // Verbose mode drops unescaped whitespace and comments outside classes.
  const Regex verbose = parse_regex("a # note\n b [ ]", "x", "t");
  REQUIRE(root(verbose).kind == RegexKind::kConcat);
  CHECK(root(verbose).children.size() == 3);
}

}  // namespace
}  // namespace glrmask::lexer
