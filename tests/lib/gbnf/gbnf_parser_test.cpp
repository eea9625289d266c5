// The GBNF parser: every construct of the format into the syntax tree, and every malformed text
// refused with its line and column.
#include "lib/gbnf/gbnf_parser.h"

#include <catch2/catch.hpp>
#include <string>

#include "lib/grammar/grammar_error.h"

namespace glrmask::gbnf {
namespace {

const Node& rule_body(const Grammar& grammar, std::size_t rule = 0) {
  return grammar.nodes[grammar.rules[rule].body];
}

// "file:line:col: message" of the refusal, or "" when the text parses.
std::string parse_refusal(const std::string& text) {
  try {
    parse_gbnf(text, "g.gbnf");
  } catch (const GrammarError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("GBNF parser: rules, alternatives, groups and references") {
  const Grammar grammar = parse_gbnf(
      "root ::= item (\",\" item)* | \"\"\n"
      "item-name ::= [a-z]+\n"
      "item ::= item-name\n",
      "g.gbnf");
  REQUIRE(grammar.rules.size() == 3);
  CHECK(grammar.rules[1].name == "item-name");
  CHECK(grammar.rules[1].line == 2);
  const Node& root = rule_body(grammar);
  REQUIRE(root.kind == NodeKind::kAlternation);
  REQUIRE(root.children.size() == 2);
  const Node& first = grammar.nodes[root.children[0]];
  REQUIRE(first.kind == NodeKind::kSequence);
  REQUIRE(first.children.size() == 2);
  const Node& reference = grammar.nodes[first.children[0]];
  CHECK(reference.kind == NodeKind::kRuleRef);
  CHECK(grammar.rules[reference.rule].name == "item");
  const Node& star = grammar.nodes[first.children[1]];
  CHECK(star.kind == NodeKind::kRepetition);
  CHECK(star.min_count == 0);
  CHECK(star.max_count == kUnbounded);
  const Node& empty = grammar.nodes[root.children[1]];
  CHECK(empty.kind == NodeKind::kLiteral);
  CHECK(empty.text.empty());
}

TEST_CASE("GBNF parser: tokens by id and by text, negated, repeated") {
  const Grammar grammar = parse_gbnf("root ::= <[10]> (!<[11]>)* <|im_end|> !</think>\n", "g.gbnf");
  const Node& root = rule_body(grammar);
  REQUIRE(root.kind == NodeKind::kSequence);
  REQUIRE(root.children.size() == 4);
  const Node& by_id = grammar.nodes[root.children[0]];
  CHECK(by_id.kind == NodeKind::kToken);
  CHECK(by_id.token == "<[10]>");
  CHECK_FALSE(by_id.token_negated);
  const Node& star = grammar.nodes[root.children[1]];
  REQUIRE(star.kind == NodeKind::kRepetition);
  const Node& negated = grammar.nodes[star.children.front()];
  CHECK(negated.kind == NodeKind::kToken);
  CHECK(negated.token == "<[11]>");
  CHECK(negated.token_negated);
  CHECK(grammar.nodes[root.children[2]].token == "<|im_end|>");
  const Node& last = grammar.nodes[root.children[3]];
  CHECK(last.token == "</think>");
  CHECK(last.token_negated);
  CHECK(last.column == 39);
}

TEST_CASE("GBNF parser: newlines after ::= and | and inside groups, comments anywhere") {
  const Grammar grammar = parse_gbnf(
      "# a comment line\n"
      "root ::=   # after the rule name\n"
      "  \"a\" |\n"
      "  ( \"b\"\n"
      "    \"c\" # inside a group\n"
      "  )\n"
      "\n"
      "other ::= \"d\"",
      "g.gbnf");
  REQUIRE(grammar.rules.size() == 2);
  CHECK(rule_body(grammar).kind == NodeKind::kAlternation);
  CHECK(grammar.rules[1].line == 8);
}

TEST_CASE("GBNF parser: repetition operators and counts") {
  const auto counts = [](const std::string& operators) {
    const Grammar grammar = parse_gbnf("root ::= \"a\"" + operators + "\n", "g.gbnf");
    const Node& node = rule_body(grammar);
    REQUIRE(node.kind == NodeKind::kRepetition);
    return std::pair{node.min_count, node.max_count};
  };
  CHECK(counts("*") == std::pair{0u, kUnbounded});
  CHECK(counts("+") == std::pair{1u, kUnbounded});
  CHECK(counts("?") == std::pair{0u, 1u});
  CHECK(counts("{3}") == std::pair{3u, 3u});
  CHECK(counts("{ 4}") == std::pair{4u, 4u});
  CHECK(counts("{2,}") == std::pair{2u, kUnbounded});
  CHECK(counts("{2, 5 }") == std::pair{2u, 5u});
  CHECK(counts("{0,5000}") == std::pair{0u, 5000u});
  // Operators stack: the second repeats the first's result.
  const Grammar stacked = parse_gbnf("root ::= \"a\"{2}*\n", "g.gbnf");
  REQUIRE(rule_body(stacked).kind == NodeKind::kRepetition);
  CHECK(stacked.nodes[rule_body(stacked).children[0]].kind == NodeKind::kRepetition);
}

TEST_CASE("GBNF parser: literals and classes decode escapes to code points") {
  const Grammar grammar = parse_gbnf(
      "root ::= \"\\x41\\u00e9\\U0001F600\\t\\r\\n\\\\\\\"\\[\\]é\" [^a-c\\x00] [\\u0100-\\u0101z] "
      ".\n",
      "g.gbnf");
  const Node& sequence = rule_body(grammar);
  REQUIRE(sequence.children.size() == 4);
  CHECK(grammar.nodes[sequence.children[0]].text ==
        std::u32string{U'A', 0xE9, 0x1F600, U'\t', U'\r', U'\n', U'\\', U'"', U'[', U']', 0xE9});
  const Node& negated = grammar.nodes[sequence.children[1]];
  REQUIRE(negated.kind == NodeKind::kCharClass);
  // Everything but NUL and a-c, without the surrogates.
  REQUIRE(negated.ranges.size() == 3);
  CHECK(negated.ranges[0].first == 1);
  CHECK(negated.ranges[0].last == U'a' - 1);
  CHECK(negated.ranges[1].first == U'd');
  CHECK(negated.ranges[1].last == 0xD7FF);
  CHECK(negated.ranges[2].first == 0xE000);
  CHECK(negated.ranges[2].last == 0x10FFFF);
  const Node& ranged = grammar.nodes[sequence.children[2]];
  REQUIRE(ranged.ranges.size() == 2);
  CHECK(ranged.ranges[0].first == U'z');
  CHECK(ranged.ranges[1].first == 0x100);
  CHECK(ranged.ranges[1].last == 0x101);
  const Node& any = grammar.nodes[sequence.children[3]];
  REQUIRE(any.ranges.size() == 2);
  CHECK(any.ranges[0].first == 0);
  CHECK(any.ranges[1].last == 0x10FFFF);
}

TEST_CASE("GBNF parser: a dash before the closing bracket is a literal dash") {
  const Grammar grammar = parse_gbnf("root ::= [a-]\n", "g.gbnf");
  const Node& node = rule_body(grammar);
  REQUIRE(node.ranges.size() == 2);
  CHECK(node.ranges[0].first == U'-');
  CHECK(node.ranges[1].first == U'a');
}

TEST_CASE("GBNF parser: refusals name line and column") {
  CHECK(parse_refusal("root ::= \"a\"{,}\n") ==
        "g.gbnf:1:14: expected a repetition count, found ','");
  CHECK(parse_refusal("root ::= \"a\"{,10}\n") ==
        "g.gbnf:1:14: expected a repetition count, found ','");
  CHECK(parse_refusal("root ::= \"a\"{3,2}\n") ==
        "g.gbnf:1:16: the repetition's maximum 2 is below its minimum 3");
  CHECK(parse_refusal("root ::= \"a\"{1000001}\n") ==
        "g.gbnf:1:14: repetition count above 1000000");
  CHECK(parse_refusal("root = \"a\"\n") ==
        "g.gbnf:1:6: expected '::=' after the rule name 'root', found '='");
  CHECK(parse_refusal("root ::= \"a\n") ==
        "g.gbnf:1:10: the string literal is not closed on its line");
  CHECK(parse_refusal("root ::= [a-z\n") == "g.gbnf:1:10: the character class is not closed");
  CHECK(parse_refusal("root ::= [z-a]\n") == "g.gbnf:1:11: the range 'z'-'a' runs backwards");
  CHECK(parse_refusal("root ::= (\"a\"\n") ==
        "g.gbnf:2:1: the group opened at line 1, column 10 is not closed");
  CHECK(parse_refusal("root ::= (\"a\" ]\n") ==
        "g.gbnf:1:15: expected ')' to close the group opened at line 1, column 10, found ']'");
  CHECK(parse_refusal("root ::= *\n") == "g.gbnf:1:10: '*' must follow an item to repeat");
  CHECK(parse_refusal("root ::= \"\\q\"\n") == "g.gbnf:1:11: unknown escape '\\q'");
  CHECK(parse_refusal("root ::= \"\\x4\"\n") ==
        "g.gbnf:1:11: the escape needs 2 hexadecimal digits");
  CHECK(parse_refusal("root ::= \"\\ud800\"\n") ==
        "g.gbnf:1:11: escape U+D800 is a surrogate, which no UTF-8 text holds");
  CHECK(parse_refusal("root ::= \"\\U00110000\"\n") ==
        "g.gbnf:1:11: escape U+110000 is above U+10FFFF");
  CHECK(parse_refusal("root ::= \"a\" ]\n") ==
        "g.gbnf:1:14: expected the end of the line after rule 'root', found ']'");
  CHECK(parse_refusal("root ::= expr\n") == "g.gbnf:1:10: undefined rule 'expr'");
  CHECK(parse_refusal("root ::= \"a\"\nroot ::= \"b\"\n") ==
        "g.gbnf:2:1: rule 'root' is defined twice (first at line 1, column 1)");
  CHECK(parse_refusal("::= \"a\"\n") == "g.gbnf:1:1: expected a rule name, found ':'");
  CHECK(parse_refusal("root ::= <[10]\n") ==
        "g.gbnf:1:15: a token (<[id]> or <name>) cannot hold a blank; expected '>'");
  CHECK(parse_refusal("root ::= \"a\" <think") == "g.gbnf:1:14: unterminated token: expected '>'");
  CHECK(parse_refusal("root ::= <>\n") == "g.gbnf:1:10: an empty token '<>'");
  CHECK(parse_refusal("root ::= <[4294967296]>\n") ==
        "g.gbnf:1:10: <[4294967296]> is not a token id: expected <[digits]> below 2^32");
  CHECK(parse_refusal("root ::= \"a\"\n\xff") == "g.gbnf:2:1: invalid UTF-8 at byte offset 13");
}

}  // namespace glrmask::gbnf
