// The Lark front-end on the project's own fixtures (tests/fixtures/grammars/*.lark). Each
// expectation below is derived by hand from Lark's documented semantics and the expansion rules in
// lib/lark/lark_ebnf.h; where Lark is installed the same fixtures are also compared with Lark
// itself.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/lark/lark_loader.h"
#include "lib/lark/lark_writer.h"
#include "tests/support/grammar_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

using testing::bnf_lines;
using testing::check_against_lark;
using testing::fixtures_dir;
using testing::terminal_lines;

std::filesystem::path fixture(const std::string& name) {
  return fixtures_dir() / "grammars" / name;
}

std::vector<std::string> warning_texts(const GrammarModel& grammar) {
  std::vector<std::string> texts;
  for (const Diagnostic& warning : grammar.warnings()) texts.push_back(warning.str());
  return texts;
}

TEST_CASE("EBNF operators expand to BNF with left-recursive repetition") {
  const GrammarModel grammar = load_lark_file(fixture("ebnf.lark"));
  CHECK(bnf_lines(grammar) ==
        "start: opt star plus maybe group repeat empty\n"
        "opt: \"a\" \"b\" \"c\"\n"
        "opt: \"a\" \"c\"\n"
        "star: \"s\" _star_star_0\n"
        "star: \"s\"\n"
        "plus: _star_star_0 \"p\"\n"  // item* and item+ share one helper, as in Lark
        "maybe: \"m\" item \",\" item\n"
        "maybe: \"m\"\n"
        "group: \"x\" \"z\"\n"
        "group: \"x\" item\n"
        "group: \"y\" \"z\"\n"
        "group: \"y\" item\n"
        "repeat: item item\n"
        "repeat: \"r\" item\n"
        "repeat: \"r\" item item\n"
        "repeat: \"r\" item item item\n"
        "empty:\n"
        "empty: \"e\"\n"
        "item: \"i\"\n"
        "_star_star_0: item\n"
        "_star_star_0: _star_star_0 item\n");
  const std::vector<std::string> terminals = {
      "A a literal anonymous",     "B b literal anonymous", "C c literal anonymous",
      "S s literal anonymous",     "P p literal anonymous", "M m literal anonymous",
      "COMMA , literal anonymous", "X x literal anonymous", "Y y literal anonymous",
      "Z z literal anonymous",     "R r literal anonymous", "E e literal anonymous",
      "I i literal anonymous"};
  CHECK(terminal_lines(grammar) == terminals);

  const SymbolId helper = grammar.find_symbol("_star_star_0").value();
  CHECK(grammar.nonterminal(helper).generated);
  CHECK(grammar.nonterminal(helper).shape.inline_always);
  CHECK_FALSE(grammar.nonterminal(grammar.find_symbol("star").value()).generated);
  CHECK(grammar.warnings().empty());
  CHECK(grammar.stats() == GrammarStats{13, 0, 10, 21, 46});
  check_against_lark(fixture("ebnf.lark"), grammar);
}

TEST_CASE("repetitions of nullable items make no ε-rules, cycles or ambiguous empties") {
  const GrammarModel grammar = load_lark_file(fixture("ebnf_nullable.lark"));
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += " item";
  // [item*] and (item?)+ both mean "item*": one shared helper or nothing. item ~ 40..42 is 40
  // copies then, optionally, a right-recursive chain of one or two more.
  const std::string h = "_start_star_0";
  CHECK(bnf_lines(grammar) ==
        "start: " + h + " \"n\" " + h + forty + "\n" + "start: " + h + " \"n\" " + h + forty +
            " _start_repeat_2\n" + "start: " + h + " \"n\"" + forty + "\n" + "start: " + h +
            " \"n\"" + forty + " _start_repeat_2\n" + "start: \"n\" " + h + forty + "\n" +
            "start: \"n\" " + h + forty + " _start_repeat_2\n" + "start: \"n\"" + forty + "\n" +
            "start: \"n\"" + forty + " _start_repeat_2\n" + "item: \"i\"\n" + h + ": item\n" + h +
            ": " + h + " item\n" + "_start_repeat_1: item\n" + "_start_repeat_2: item\n" +
            "_start_repeat_2: item _start_repeat_1\n");
  // Lark's own expansion of (item?)+ differs (it keeps an ε-rule and a cycle), so only the
  // terminals are compared with Lark here.
  check_against_lark(fixture("ebnf_nullable.lark"), grammar, /*compare_rules=*/false);
}

TEST_CASE("terminal patterns: escapes, flags, ranges, composition, priorities and names") {
  const GrammarModel grammar = load_lark_file(fixture("terminals.lark"));
  const std::vector<std::string> terminals = {
      "NAME [a-z_]\\w* priority=-1",
      "KEYWORD (?:(?i:let)|var) priority=2",
      "NUM (?:[0-9])+(?:\\.(?:[0-9])+)?",
      "TAB \t literal",
      "QUOTED \"[^\"]*\"",
      "ESCAPES A\u00e9\n\\\\d literal",
      "DIGITS (?:\\d){2,3}",
      "SEMI ; literal",
      "KEY (?:(?:[a-z]|[A-Z])(?:(?:(?:[a-z]|[A-Z])|_))*|@(?i:(?:(?i:[0-9a-f])){4}))",
      "IF if literal anonymous",
      "LPAR \\( literal anonymous",
      "PLUS \\+ literal anonymous",
      "__ANON_0 \u2200 literal anonymous",
      "\u00dcBER \u00fcber literal anonymous",
      "SELECT select flags=i literal anonymous",
      "__ANON_1 [0-9]+ anonymous",
      "__ANON_2 0x[0-9a-f]+ flags=i anonymous",
      "__ANON_3 -> literal anonymous",
      "BACKSLASH \\\\ literal anonymous",
      "__ANON_4 == literal anonymous",
  };
  CHECK(terminal_lines(grammar) == terminals);
  CHECK(grammar.terminal(grammar.find_symbol("TAB").value()).literal == "\t");
  CHECK(grammar.terminal(grammar.find_symbol("ESCAPES").value()).literal == "A\u00e9\n\\d");
  CHECK(grammar.terminal(grammar.find_symbol("BACKSLASH").value()).literal == "\\");
  CHECK(bnf_lines(grammar) ==
        "start: _start_plus_0 \"if\" \"(\" \"+\" \"\u2200\" \"\u00fcber\" \"select\"i /[0-9]+/ "
        "/0x[0-9a-f]+/i \"->\" TAB \"\\\\\" QUOTED ESCAPES DIGITS \"==\" SEMI SEMI KEY\n"
        "word: NAME\n"
        "word: KEYWORD\n"
        "word: NUM\n"
        "_start_plus_0: word\n"
        "_start_plus_0: _start_plus_0 word\n");
  // DIGIT, LETTER and HEXDIGIT are only building blocks of other terminals: dropped silently.
  CHECK_FALSE(grammar.find_symbol("DIGIT").has_value());
  CHECK(grammar.warnings().empty());
  check_against_lark(fixture("terminals.lark"), grammar);
}

TEST_CASE("a sequence multiplying out too far moves its largest choices into helpers") {
  std::string text = "start:";
  for (int i = 0; i < 7; ++i) text += " [\"a\" | \"b\" | \"c\"]";  // 4^7 = 16384 choices
  const GrammarModel grammar = load_lark_text(text + "\n", "wide.lark");
  // The first two choices move into one shared helper H (without their empty option, so that
  // the helper does not derive ε): 2 * 2 * 4^5 = 4096 combinations remain. Many spell the same
  // sequence (H from the first choice or from the second), leaving 0..2 H followed by 0..5 of
  // a, b, c: 3 * (1 + 3 + 9 + 27 + 81 + 243) = 1092 distinct alternatives.
  const SymbolId start = grammar.find_symbol("start").value();
  const auto rules = grammar.rules_of(start);
  CHECK(rules.size() == 1092);
  const SymbolId helper = grammar.find_symbol("_start_alt_0").value();
  CHECK(testing::bnf_lines(grammar).find("start: _start_alt_0 _start_alt_0 \"a\" \"a\" \"a\" "
                                         "\"a\" \"a\"\n") == 0);
  CHECK(rules.back().rhs.empty());
  REQUIRE(grammar.rules_of(helper).size() == 3);
  for (const Rule& rule : grammar.rules_of(helper)) CHECK(rule.rhs.size() == 1);
  CHECK(grammar.num_nonterminals() == 2);
}

TEST_CASE("a part with a top-level | is grouped before concatenation") {
  // Lark pastes /a|b/ "c" as a|bc, which means "a" or "bc"; glrmask keeps the written meaning.
  const GrammarModel grammar = load_lark_text("start: T\nT: /a|b/ \"c\" /d/i\n", "inline.lark");
  CHECK(grammar.terminal(grammar.find_symbol("T").value()).pattern == "(?:a|b)c(?i:d)");
}

TEST_CASE("directives: %import common, %ignore, %declare, %override, %extend") {
  const GrammarModel grammar = load_lark_file(fixture("directives.lark"));
  const std::vector<std::string> terminals = {
      "WS [ \t\f\r\n]+ ignored",
      "INT [0-9]+",
      "CNAME [_A-Za-z][_A-Za-z0-9]*",
      "STRING \"(?:[^\"\\\\\n]|\\\\.)*\"",
      "FLAG (?:yes|no)",
      "__IGNORE_1 #[^\n]* ignored anonymous",
      "EQUAL = literal anonymous",
      "HELLO hello literal anonymous",
      "HI hi literal anonymous",
  };
  CHECK(terminal_lines(grammar) == terminals);
  CHECK(bnf_lines(grammar) ==
        "start: _start_plus_0\n"
        "start: INT\n"
        "start: greeting\n"
        "pair: CNAME \"=\" value\n"
        "value: STRING\n"
        "value: INT\n"
        "value: FLAG\n"
        "greeting: \"hello\"\n"  // %extend puts the new alternatives first, as Lark does
        "greeting: \"hi\"\n"
        "_start_plus_0: pair\n"
        "_start_plus_0: _start_plus_0 pair\n");
  const std::string file = fixture("directives.lark").string();
  CHECK(warning_texts(grammar) ==
        std::vector<std::string>{
            file + ":5:10: warning: terminal '_NEVER_PRODUCED' is %declare'd but never used; "
                   "removed",
            file + ":11:1: warning: rule 'unused' is unreachable from the start rule 'start'; "
                   "removed"});
  const Terminal& ws = grammar.terminal(grammar.find_symbol("WS").value());
  CHECK(ws.origin == SourceLocation{file, 2, 16});  // imported terminals point at their %import
  check_against_lark(fixture("directives.lark"), grammar);
}

TEST_CASE("rule modifiers, aliases and rule priorities") {
  const GrammarModel grammar = load_lark_file(fixture("shapes.lark"));
  CHECK(bnf_lines(grammar) ==
        "start: _items\n"
        "_items: _items_plus_0\n"
        "expr: term\n"
        "expr: expr \"+\" term -> add\n"
        "expr: expr op term -> binary\n"
        "op: \"-\"\n"
        "op: \"*\"\n"
        "term: NUMBER -> number\n"
        "term: \"(\" expr \")\"\n"
        "_items_plus_0: expr\n"
        "_items_plus_0: _items_plus_0 expr\n");
  auto shape = [&](const char* name) {
    return grammar.nonterminal(grammar.find_symbol(name).value()).shape;
  };
  CHECK(shape("start") == TreeShape{});
  CHECK(shape("_items") == TreeShape{true, false, false});
  CHECK(shape("expr") == TreeShape{false, true, false});
  CHECK(shape("op") == TreeShape{false, false, true});
  CHECK(shape("_items_plus_0") == TreeShape{true, false, false});
  for (const Rule& rule : grammar.rules()) {
    INFO(grammar.name(rule.lhs));
    CHECK(rule.priority == (grammar.name(rule.lhs) == "term" ? 2 : 0));
    CHECK(rule.shape == grammar.nonterminal(rule.lhs).shape);
  }
  const SymbolId term = grammar.find_symbol("term").value();
  const std::string file = fixture("shapes.lark").string();
  CHECK(grammar.rules_of(term)[1].origin == SourceLocation{file, 9, 9});
  CHECK(grammar.nonterminal(term).origin == SourceLocation{file, 8, 1});
  CHECK(grammar.start() == grammar.find_symbol("start").value());
  check_against_lark(fixture("shapes.lark"), grammar);
}

TEST_CASE("layout: comments, blank lines, continued alternatives, line continuation") {
  const GrammarModel grammar = load_lark_file(fixture("layout.lark"));
  CHECK(bnf_lines(grammar) ==
        "start: a\n"
        "start: b c\n"
        "a: \"a\"\n"
        "b: \"b\"\n"
        "c: \"c\"\n"
        "c:\n");
  check_against_lark(fixture("layout.lark"), grammar);
}

TEST_CASE("glrmask's common terminals mean what Lark's do") {
  const GrammarModel grammar = load_lark_file(fixture("common_all.lark"));
  CHECK(grammar.num_terminals() == 24);
  for (const Terminal& terminal : grammar.terminals()) {
    INFO(terminal.name);
    // A DFA lexer takes these literally: no lazy quantifiers, no lookaround.
    CHECK(terminal.pattern.find("*?") == std::string::npos);
    CHECK(terminal.pattern.find("(?<") == std::string::npos);
    CHECK(terminal.pattern.find("(?=") == std::string::npos);
    CHECK(terminal.pattern.find("(?!") == std::string::npos);
  }
  check_against_lark(fixture("common_all.lark"), grammar);
}

TEST_CASE("the start rule can be chosen") {
  const GrammarModel grammar =
      load_lark_text("start: a\na: \"x\" b\nb: \"y\"\n", "inline.lark", LarkOptions{"a"});
  CHECK(grammar.name(grammar.start()) == "a");
  CHECK(bnf_lines(grammar) == "a: \"x\" b\nb: \"y\"\n");
  CHECK(warning_texts(grammar) ==
        std::vector<std::string>{
            "inline.lark:1:1: warning: rule 'start' is unreachable from the start rule 'a'; "
            "removed"});
}

TEST_CASE("to_lark_text prints BNF that reads back as the same grammar") {
  const GrammarModel grammar = load_lark_file(fixture("shapes.lark"));
  CHECK(to_lark_text(grammar) ==
        "start: _items\n"
        "_items: _items_plus_0\n"
        "?expr: term\n"
        "     | expr \"+\" term -> add\n"
        "     | expr op term -> binary\n"
        "!op: \"-\"\n"
        "   | \"*\"\n"
        "term.2: NUMBER -> number\n"
        "      | \"(\" expr \")\"\n"
        "_items_plus_0: expr\n"
        "             | _items_plus_0 expr\n"
        "\n"
        "NUMBER: /[0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\\.[0-9]+(?:[eE][+-]?[0-9]+)?/\n"
        "WS_INLINE: /[ \\t]+/\n"
        "\n"
        "%ignore WS_INLINE\n");

  for (const char* name : {"ebnf.lark", "ebnf_nullable.lark", "terminals.lark", "directives.lark",
                           "shapes.lark", "layout.lark", "common_all.lark"}) {
    INFO(name);
    const GrammarModel original = load_lark_file(fixture(name));
    const std::string text = to_lark_text(original);
    const GrammarModel reread = load_lark_text(text, "printed.lark");
    CHECK(testing::canonical_dump(reread) == testing::canonical_dump(original));
    CHECK(to_lark_text(reread) == text);
  }
}

}  // namespace
}  // namespace glrmask
