// The grammar model and GrammarBuilder, independent of any front-end.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/grammar/grammar_builder.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask {
namespace {

Terminal literal(const std::string& name, const std::string& text) {
  Terminal terminal;
  terminal.name = name;
  terminal.pattern = text;
  terminal.is_literal = true;
  terminal.literal = text;
  terminal.origin = {"g", 1, 1};
  return terminal;
}

Nonterminal nonterminal(const std::string& name, std::uint32_t line, bool generated = false) {
  Nonterminal n;
  n.name = name;
  n.generated = generated;
  n.origin = {"g", line, 1};
  return n;
}

RuleSpec rule(const std::string& lhs, std::vector<std::string> rhs, std::uint32_t line = 1,
              std::string alias = "") {
  return RuleSpec{lhs, std::move(rhs), 0, std::move(alias), {"g", line, 1}};
}

std::vector<std::string> names_of(const GrammarModel& grammar, std::span<const SymbolId> ids) {
  std::vector<std::string> names;
  for (SymbolId id : ids) names.emplace_back(grammar.name(id));
  return names;
}

TEST_CASE("symbols get dense ids, terminals first, and rules are grouped by lhs") {
  GrammarBuilder builder("g");
  builder.add_nonterminal(nonterminal("start", 1));
  builder.add_nonterminal(nonterminal("list", 2));
  builder.add_terminal(literal("A", "a"));
  builder.add_terminal(literal("COMMA", ","));
  // Alternatives of `list` and `start` are interleaved on purpose.
  builder.add_rule(rule("list", {"A"}));
  builder.add_rule(rule("start", {"list"}, 1, "whole"));
  builder.add_rule(rule("list", {"list", "COMMA", "A"}));
  builder.add_rule(rule("start", {}));
  const GrammarModel grammar = std::move(builder).build("start");

  CHECK(grammar.num_terminals() == 2);
  CHECK(grammar.num_nonterminals() == 2);
  CHECK(grammar.num_symbols() == 4);
  CHECK(grammar.find_symbol("A") == SymbolId{0});
  CHECK(grammar.find_symbol("COMMA") == SymbolId{1});
  CHECK(grammar.find_symbol("start") == SymbolId{2});
  CHECK(grammar.find_symbol("list") == SymbolId{3});
  CHECK_FALSE(grammar.find_symbol("missing").has_value());
  CHECK(grammar.is_terminal(SymbolId{1}));
  CHECK_FALSE(grammar.is_terminal(SymbolId{2}));
  CHECK(grammar.nonterminal_id(1) == SymbolId{3});
  CHECK(grammar.start() == SymbolId{2});

  REQUIRE(grammar.rules().size() == 4);
  const auto start_rules = grammar.rules_of(SymbolId{2});
  REQUIRE(start_rules.size() == 2);
  CHECK(names_of(grammar, start_rules[0].rhs) == std::vector<std::string>{"list"});
  CHECK(start_rules[0].alias == "whole");
  CHECK(start_rules[1].rhs.empty());
  const auto list_rules = grammar.rules_of(SymbolId{3});
  REQUIRE(list_rules.size() == 2);
  CHECK(names_of(grammar, list_rules[1].rhs) == std::vector<std::string>{"list", "COMMA", "A"});
  CHECK(grammar.first_rule_of(SymbolId{3}) == 2);
  for (const Rule& r : grammar.rules_of(SymbolId{3})) CHECK(r.lhs == SymbolId{3});

  CHECK(grammar.stats() == GrammarStats{2, 0, 2, 4, 5});
  CHECK(grammar.warnings().empty());
  CHECK_THROWS_AS(grammar.terminal(SymbolId{2}), Error);
  CHECK_THROWS_AS(grammar.nonterminal(SymbolId{0}), Error);
  CHECK_THROWS_AS(grammar.nonterminal(SymbolId{4}), Error);
}

TEST_CASE("unproductive and unreachable symbols are removed with a warning") {
  GrammarBuilder builder("g");
  builder.add_nonterminal(nonterminal("start", 1));
  builder.add_nonterminal(nonterminal("loop", 2));      // only loop: loop "x"
  builder.add_nonterminal(nonterminal("orphan", 3));    // fine, but nothing uses it
  builder.add_nonterminal(nonterminal("declared", 4));  // no alternatives at all
  builder.add_nonterminal(nonterminal("_helper", 5, /*generated=*/true));  // unreachable too
  builder.add_terminal(literal("A", "a"));
  builder.add_terminal(literal("X", "x"));
  builder.add_terminal(literal("O", "o"));
  Terminal space = literal("SPACE", " ");
  space.ignored = true;
  builder.add_terminal(space);
  builder.add_rule(rule("start", {"A"}));
  builder.add_rule(rule("start", {"A", "loop"}));  // needs an unproductive symbol: dropped
  builder.add_rule(rule("start", {"declared"}));   // likewise
  builder.add_rule(rule("loop", {"loop", "X"}));
  builder.add_rule(rule("orphan", {"O"}));
  builder.add_rule(rule("_helper", {"O"}));
  const GrammarModel grammar = std::move(builder).build("start");

  CHECK(grammar.num_nonterminals() == 1);
  REQUIRE(grammar.rules().size() == 1);
  CHECK(names_of(grammar, grammar.rules()[0].rhs) == std::vector<std::string>{"A"});
  // X and O were only used by removed rules; SPACE is ignored, so it stays.
  std::vector<std::string> terminals;
  for (const Terminal& t : grammar.terminals()) terminals.push_back(t.name);
  CHECK(terminals == std::vector<std::string>{"A", "SPACE"});
  CHECK(grammar.ignored_terminals() == std::vector<SymbolId>{SymbolId{1}});

  std::vector<std::string> warnings;
  for (const Diagnostic& d : grammar.warnings()) warnings.push_back(d.str());
  CHECK(warnings ==
        std::vector<std::string>{
            "g:2:1: warning: rule 'loop' derives no finite string (every alternative needs a "
            "rule that never ends); removed",
            "g:4:1: warning: rule 'declared' has no alternatives; removed",
            "g:3:1: warning: rule 'orphan' is unreachable from the start rule 'start'; removed"});
}

TEST_CASE("repeated alternatives: same alias kept once, different alias refused") {
  GrammarBuilder same("g");
  same.add_nonterminal(nonterminal("start", 1));
  same.add_terminal(literal("A", "a"));
  same.add_rule(rule("start", {"A"}, 1, "x"));
  same.add_rule(rule("start", {"A"}, 2, "x"));
  CHECK(std::move(same).build("start").rules().size() == 1);

  GrammarBuilder different("g");
  different.add_nonterminal(nonterminal("start", 1));
  different.add_terminal(literal("A", "a"));
  different.add_rule(rule("start", {"A"}, 1, "x"));
  different.add_rule(rule("start", {"A"}, 2, "y"));
  CHECK_THROWS_WITH(std::move(different).build("start"),
                    "g:2:1: this alternative of 'start' is also defined at g:1:1 with a "
                    "different alias ('x' and 'y')");
}

TEST_CASE("builder errors name the place") {
  SECTION("undefined symbol") {
    GrammarBuilder builder("g");
    builder.add_nonterminal(nonterminal("start", 1));
    builder.add_rule(rule("start", {"NOPE"}, 7));
    CHECK_THROWS_WITH(std::move(builder).build("start"),
                      "g:7:1: symbol 'NOPE' is used but not defined");
  }
  SECTION("a name used twice") {
    GrammarBuilder builder("g");
    builder.add_terminal(literal("A", "a"));
    CHECK_THROWS_WITH(builder.add_terminal(literal("A", "b")),
                      "g:1:1: symbol 'A' is defined twice");
  }
  SECTION("missing start rule") {
    GrammarBuilder builder("g");
    builder.add_nonterminal(nonterminal("begin", 1));
    builder.add_terminal(literal("A", "a"));
    builder.add_rule(rule("begin", {"A"}));
    CHECK_THROWS_WITH(std::move(builder).build("start"),
                      "g:1:1: the start rule 'start' is not defined");
  }
  SECTION("a terminal as start") {
    GrammarBuilder builder("g");
    builder.add_terminal(literal("A", "a"));
    CHECK_THROWS_AS(std::move(builder).build("A"), GrammarError);
  }
  SECTION("start derives nothing") {
    GrammarBuilder builder("g");
    builder.add_nonterminal(nonterminal("start", 3));
    builder.add_rule(rule("start", {"start"}));
    CHECK_THROWS_WITH(std::move(builder).build("start"),
                      "g:3:1: the start rule 'start' derives no finite string");
  }
  SECTION("a rule for a terminal") {
    GrammarBuilder builder("g");
    builder.add_terminal(literal("A", "a"));
    builder.add_rule(rule("A", {}, 9));
    CHECK_THROWS_WITH(std::move(builder).build("start"), "g:9:1: 'A' is not a rule name");
  }
}

TEST_CASE("productivity counts each occurrence of a nonterminal") {
  // b is productive only through its second alternative; a needs b twice.
  GrammarBuilder builder("g");
  builder.add_nonterminal(nonterminal("start", 1));
  builder.add_nonterminal(nonterminal("b", 2));
  builder.add_terminal(literal("X", "x"));
  builder.add_rule(rule("start", {"b", "b"}));
  builder.add_rule(rule("b", {"b", "start"}));
  builder.add_rule(rule("b", {"X"}));
  const GrammarModel grammar = std::move(builder).build("start");
  CHECK(grammar.rules().size() == 3);
  CHECK(grammar.warnings().empty());
}

}  // namespace
}  // namespace glrmask
