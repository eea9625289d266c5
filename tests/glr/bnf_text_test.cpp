// The BNF text reader: Lark's plain-BNF subset in, Cfg out; malformed text names line and column.
#include "glr/analysis/bnf_text.h"

#include <catch2/catch.hpp>
#include <string>

#include "lib/core/error.h"

namespace glrmask::glr {
namespace {

std::string rule_text(const Cfg& cfg, const Cfg::Rule& rule) {
  std::string text = cfg.name(rule.lhs) + ":";
  for (const GrammarSymbolId symbol : rule.rhs) text += " " + cfg.name(symbol);
  return text;
}

TEST_CASE("Reads rules, continuation lines, priorities and empty alternatives") {
  const Cfg cfg = parse_bnf(
      "// a comment\n"
      "start: item_list NAME   # trailing comment\n"
      "item_list.2: item_list \",\" item\n"
      "    | item\n"
      "    |\n"
      "?item: _NL | __ANON_0 | __start_star_0\n"
      "__start_star_0: \"x\"\n"
      "NAME: /[a-z]+/\n"
      "   | \"q\"\n"
      "%ignore \" \"\n",
      "g.lark");
  // Terminals first, in order of first use; then nonterminals in order of first appearance.
  REQUIRE(cfg.num_terminals == 5);
  CHECK(cfg.symbol_names == std::vector<std::string>{"NAME", "\",\"", "_NL", "__ANON_0", "\"x\"",
                                                     "start", "item_list", "item",
                                                     "__start_star_0"});
  CHECK(cfg.start == GrammarSymbolId{5});
  REQUIRE(cfg.rules.size() == 8);
  CHECK(rule_text(cfg, cfg.rules[0]) == "start: item_list NAME");
  CHECK(rule_text(cfg, cfg.rules[1]) == "item_list: item_list \",\" item");
  CHECK(rule_text(cfg, cfg.rules[2]) == "item_list: item");
  CHECK(rule_text(cfg, cfg.rules[3]) == "item_list:");
  CHECK(rule_text(cfg, cfg.rules[4]) == "item: _NL");
  CHECK(rule_text(cfg, cfg.rules[7]) == "__start_star_0: \"x\"");
  CHECK(cfg.rules[0].priority == 0);
  CHECK(cfg.rules[1].priority == 2);
  CHECK(cfg.rules[3].priority == 2);
  CHECK(cfg.rules[4].priority == 0);
  CHECK(cfg.rules[1].origin == "g.lark:3:14");
  CHECK(cfg.rules[2].origin == "g.lark:4:7");
}

TEST_CASE("%start picks the start rule, and negative priorities are read") {
  const Cfg cfg = parse_bnf("%start b\na: b\nb.-1: \"y\"\n", "s.bnf");
  CHECK(cfg.name(cfg.start) == "b");
  CHECK(cfg.rules[1].priority == -1);
}

TEST_CASE("Malformed BNF text is rejected with file, line and column") {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_bnf(text, "bad.lark");
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK_THAT(error_of("start: a*\na: \"x\"\n"),
             Catch::StartsWith("bad.lark:1:9:") && Catch::Contains("'*' is not supported"));
  CHECK_THAT(error_of("start: \"x\n"), Catch::StartsWith("bad.lark:1:8: unterminated string"));
  CHECK_THAT(error_of("start: a\n  b: \"x\"\n"),
             Catch::StartsWith("bad.lark:1:8: nonterminal 'a' is used but never defined"));
  CHECK_THAT(error_of("| \"x\"\n"), Catch::StartsWith("bad.lark:1:1: '|' continues no rule"));
  CHECK_THAT(error_of("start \"x\"\n"), Catch::StartsWith("bad.lark:1:7: expected ':'"));
  CHECK_THAT(error_of("start: /x+/\n"), Catch::StartsWith("bad.lark:1:8: regular expressions"));
  CHECK_THAT(error_of("start: \"select\"i\n"), Catch::StartsWith("bad.lark:1:16: string literal"));
  CHECK_THAT(error_of("start: x -> alias\nx: \"x\"\n"),
             Catch::StartsWith("bad.lark:1:10: aliases"));
  CHECK_THAT(error_of("start.x: \"x\"\n"), Catch::StartsWith("bad.lark:1:7: expected an integer"));
  CHECK_THAT(error_of("// only a comment\n"), Catch::Contains("grammar has no rules"));
  CHECK_THAT(error_of("%start nope\na: \"x\"\n"),
             Catch::StartsWith("bad.lark:1:8: start rule 'nope' is not defined"));
  CHECK_THAT(error_of("%ignore WS\n| \"x\"\n"), Catch::StartsWith("bad.lark:2:1:"));
}

}  // namespace
}  // namespace glrmask::glr
