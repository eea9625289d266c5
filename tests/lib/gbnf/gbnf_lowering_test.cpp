// The GBNF lowering: the compiled grammar (lexer + parser) accepts exactly the GBNF language.
// Checked on every short text over each grammar's alphabet against a direct reading of the
// syntax tree (a fixed point of "node n matches text[i, j)", which handles left recursion), on
// grammars built to fall into maximal munch's traps: a lexeme that could swallow the next
// (digits then optional space then digits), optional whitespace before a newline, keywords that
// are also names, overlapping repetitions.
#include "lib/gbnf/gbnf_lowering.h"

#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/core/unicode_utf8.h"
#include "lib/gbnf/gbnf_parser.h"
#include "lib/grammar/grammar_error.h"
#include "tests/support/gbnf_test_support.h"

namespace glrmask::gbnf {
namespace {

// Which [i, j) each node matches in `text` (code points), by iterating to the least fixed point.
class FixpointReference {
 public:
  FixpointReference(const Grammar& grammar, std::u32string text)
      : grammar_(grammar), text_(std::move(text)) {
    const std::size_t n = text_.size() + 1;
    spans_.assign(grammar.nodes.size(),
                  std::vector<std::vector<uint8_t>>(n, std::vector<uint8_t>(n, 0)));
    for (bool changed = true; changed;) {
      changed = false;
      for (NodeId id = 0; id < grammar.nodes.size(); ++id)
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = i; j < n; ++j)
            if (!spans_[id][i][j] && matches(id, i, j)) {
              spans_[id][i][j] = 1;
              changed = true;
            }
    }
  }

  bool accepts(const std::string& rule) const {
    for (const Rule& r : grammar_.rules)
      if (r.name == rule) return spans_[r.body][0][text_.size()] != 0;
    throw std::logic_error("no rule " + rule);
  }

 private:
  bool known(NodeId id, std::size_t i, std::size_t j) const { return spans_[id][i][j] != 0; }

  // One step: whether n matches [i, j) given what is known so far.
  bool matches(NodeId id, std::size_t i, std::size_t j) const {
    const Node& node = grammar_.nodes[id];
    switch (node.kind) {
      case NodeKind::kLiteral:
        return j - i == node.text.size() && text_.compare(i, j - i, node.text) == 0;
      case NodeKind::kCharClass:
        if (j != i + 1) return false;
        for (const CodePointRange& range : node.ranges)
          if (text_[i] >= range.first && text_[i] <= range.last) return true;
        return false;
      case NodeKind::kAlternation:
        for (const NodeId child : node.children)
          if (known(child, i, j)) return true;
        return false;
      case NodeKind::kSequence:
        return sequence(node.children, 0, i, j);
      case NodeKind::kRepetition: {
        // k copies for k in [min, max]: copies of a nullable child beyond j - i add nothing.
        const std::size_t most =
            std::min<std::size_t>(node.max_count, node.min_count + (j - i) + 1);
        for (std::size_t k = node.min_count; k <= most; ++k)
          if (copies(node.children.front(), k, i, j)) return true;
        return false;
      }
      case NodeKind::kRuleRef:
        return known(grammar_.rules[node.rule].body, i, j);
      case NodeKind::kToken:
        return false;  // texts only: the grammars with tokens are tested on token ids elsewhere
    }
    return false;
  }

  bool sequence(const std::vector<NodeId>& items, std::size_t k, std::size_t i,
                std::size_t j) const {
    if (k == items.size()) return i == j;
    for (std::size_t m = i; m <= j; ++m)
      if (known(items[k], i, m) && sequence(items, k + 1, m, j)) return true;
    return false;
  }

  bool copies(NodeId item, std::size_t k, std::size_t i, std::size_t j) const {
    if (k == 0) return i == j;
    for (std::size_t m = i; m <= j; ++m)
      if (known(item, i, m) && copies(item, k - 1, m, j)) return true;
    return false;
  }

  const Grammar& grammar_;
  std::u32string text_;
  std::vector<std::vector<std::vector<uint8_t>>> spans_;
};

std::u32string code_points(const std::string& utf8) {
  std::u32string out;
  for (std::size_t pos = 0; pos < utf8.size();) out += decode_utf8(utf8, pos);
  return out;
}

// Every text of up to `max_length` code points over `alphabet` (UTF-8 strings of one code point).
std::vector<std::string> all_texts(const std::vector<std::string>& alphabet,
                                   std::size_t max_length) {
  std::vector<std::string> texts{""};
  std::vector<std::string> frontier{""};
  for (std::size_t length = 1; length <= max_length; ++length) {
    std::vector<std::string> next;
    for (const std::string& prefix : frontier)
      for (const std::string& symbol : alphabet) next.push_back(prefix + symbol);
    texts.insert(texts.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  return texts;
}

// Compares glrmask with the fixed point on every short text; returns the accepted count.
std::size_t compare_exhaustively(const std::string& gbnf, const std::vector<std::string>& alphabet,
                                 std::size_t max_length) {
  INFO(gbnf);
  const Grammar tree = parse_gbnf(gbnf, "test.gbnf");
  const testing::GbnfRecognizer mine(gbnf);
  std::size_t accepted = 0;
  for (const std::string& text : all_texts(alphabet, max_length)) {
    const bool expected = FixpointReference(tree, code_points(text)).accepts("root");
    INFO("text \"" << text << "\"");
    REQUIRE(mine.accepts(text) == expected);
    accepted += expected ? 1 : 0;
  }
  return accepted;
}

}  // namespace

TEST_CASE("GBNF lowering: lexemes that could swallow their follower") {
  // Each sequence refers back to its rule, so its items are terminals of their own, not one regex
  // for the whole text, and the munch check has to split what would cut a sentence.
  // A run of digits, an optional space, digits: "12" is two numbers.
  CHECK(compare_exhaustively("root ::= num \" \"? num (\",\" root)?\nnum ::= [0-9]+\n",
                             {"1", "2", " ", ","}, 6) > 0);
  // Optional whitespace before a required newline (llama.cpp's arithmetic grammar).
  CHECK(compare_exhaustively("root ::= v ws \"\\n\" root?\nv ::= [a-b]+\nws ::= [ \\n]*\n",
                             {"a", " ", "\n"}, 7) > 0);
  // A keyword that is also a name, and a name that is a keyword's prefix.
  CHECK(compare_exhaustively("root ::= (\"ab\" \" \" | [a-b]+ \" \"?) \"b\" root?\n",
                             {"a", "b", " "}, 7) > 0);
  // Overlapping repetitions and a literal that their texts can end with.
  CHECK(compare_exhaustively("root ::= \"a\"* \"ab\" [ab]{0,2} \"b\"? root?\n", {"a", "b"}, 8) > 0);
}

TEST_CASE("GBNF lowering: recursion, left recursion and nullable rules") {
  CHECK(compare_exhaustively("root ::= \"a\" | root \"a\"\n", {"a", "b"}, 6) == 6);
  CHECK(compare_exhaustively("root ::= \"(\" root \")\" root | \"\"\n", {"(", ")"}, 8) > 0);
  CHECK(compare_exhaustively(
            "root ::= asdf\nasdf ::= \"a\" | foo \"b\"\nfoo ::= \"c\" | empty asdf \"d\" | \"e\"\n"
            "empty ::= \"blah\" | \n",
            {"a", "b", "c", "d", "e"}, 5) > 0);
  CHECK(compare_exhaustively("root ::= ( [x]* )*\n", {"x", "y"}, 5) == 6);
  CHECK(compare_exhaustively("root ::= (e \",\"?)* \"!\"\ne ::= \"[\" root? \"]\" | \"x\"?\n",
                             {"[", "]", ",", "x", "!"}, 5) > 0);
}

TEST_CASE("GBNF lowering: classes, any character and bounded repetitions over code points") {
  CHECK(compare_exhaustively("root ::= ... \"abc\" ...\n", {"a", "b", "c"}, 9) > 0);
  CHECK(compare_exhaustively("root ::= . \"b\" .\n", {"a", "b", "é", "\n"}, 4) > 0);
  CHECK(compare_exhaustively("root ::= [^a]{2,3} | \"a\"{0,1} [é-ê]\n", {"a", "é", "ë", "\n"}, 4) >
        0);
  CHECK(compare_exhaustively("root ::= (\"0x\" [A-F0-9]{1} \" \"?){2,3}\n", {"0", "x", "A", " "},
                             7) > 0);
}

TEST_CASE("GBNF lowering: repetition counts above the regex dialect's 1000") {
  const testing::GbnfRecognizer exact("root ::= \"a\"{2001,2003} [ab]{0,1500} \"c\"\n");
  for (std::size_t count = 1998; count <= 2002; ++count) {
    INFO(count);
    CHECK(exact.accepts(std::string(count, 'a') + "c") == (count >= 2001));
    CHECK(exact.accepts(std::string(count, 'a') + "bc") == (count >= 2001));
  }
  CHECK(exact.accepts(std::string(2003, 'a') + std::string(1500, 'b') + "c"));
  CHECK_FALSE(exact.accepts(std::string(2003, 'a') + std::string(1501, 'b') + "c"));
  CHECK(exact.accepts(std::string(2001, 'a') + std::string(1500, 'b') + "c"));
  CHECK_FALSE(exact.accepts(std::string(2001, 'a') + std::string(1501, 'b') + "c"));
  CHECK(exact.accepts(std::string(2003 + 1500, 'a') + "c"));
  CHECK_FALSE(exact.accepts(std::string(2003 + 1501, 'a') + "c"));
}

TEST_CASE("GBNF lowering: terminals stay whole where munch cannot cut them") {
  // Strings and numbers in a JSON-like grammar stay one terminal each.
  const std::string json =
      "root ::= value\n"
      "value ::= \"[\" ws (value (\",\" ws value)*)? \"]\" ws | string | number\n"
      "string ::= \"\\\"\" [a-z]* \"\\\"\" ws\n"
      "number ::= \"-\"? [0-9]+ ws\n"
      "ws ::= \" \"?\n";
  const auto grammar = testing::compile_gbnf(json);
  std::set<std::string> patterns;
  for (const Terminal& terminal : grammar->grammar().terminals()) {
    CHECK(terminal.whole_language);
    patterns.insert(terminal.pattern);
  }
  CHECK(patterns.contains("(?:\\x22(?:[a-z]*)\\x22(?:\\x20?))"));
  CHECK(patterns.contains("(?:(?:\\x2d?)(?:[0-9]+)(?:\\x20?))"));
  CHECK(grammar->grammar().num_terminals() <= 6);
  CHECK(compare_exhaustively(json, {"[", "]", ",", " ", "\"", "a", "1"}, 5) > 0);
}

TEST_CASE("GBNF lowering: refusals name the place") {
  const auto refusal = [](const std::string& text, const std::string& start = "start") {
    try {
      testing::compile_gbnf(text, start);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal("rot ::= \"a\"\n") ==
        "test.gbnf:1:1: the grammar has no rule 'root' to start from");
  CHECK(refusal("root ::= \"a\"\n", "nonexistent") ==
        "test.gbnf:1:1: the grammar has no rule 'nonexistent' to start from");
  CHECK(refusal("foobar ::= \"foobar\"\n", "foobar").empty());
  CHECK(refusal("root ::= (((((([^x]*){0,99}){0,99}){0,99}){0,99}){0,99}){0,99}\n")
            .starts_with("test.gbnf:1:11: this part expands to more than 16777216 items"));
  CHECK(refusal("root ::= \"a\" [^\\x00-\\U0010FFFF]\n") ==
        "test.gbnf:1:14: the character class matches no character");
}

}  // namespace glrmask::gbnf
