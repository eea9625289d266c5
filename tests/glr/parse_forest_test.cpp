// Parse forests (glr/parse_forest.h, forest_parser.h, derivation_count.h, derivation_tree.h): the
// number of derivations equals an independent count written from the grammar model
// (tests/support/span_derivation_counter.h) on every string up to length 5 of random small
// grammars with ε-rules, derivation cycles (infinite counts) and hidden left recursion; every
// listed tree is a derivation of the grammar that yields the text, lies in the forest, and
// differs from the others; and the hand-checked fixtures: Catalan numbers for `e: e "+" e`, the
// dangling else, lexical ties, skipped tokens, live readings of prefixes.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "glr/analysis/derivation_tree.h"
#include "glr/analysis/forest_grammar.h"
#include "glr/analysis/forest_parser.h"
#include "glr/analysis/lark_tree.h"
#include "glr/compiled_grammar.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/random_lark_grammar.h"
#include "tests/support/span_derivation_counter.h"

namespace glrmask::glr {
namespace {

using glrmask::testing::SpanDerivationCounter;

std::shared_ptr<const CompiledGrammar> compile(const std::string& text, ParseOptions options = {}) {
  return glrmask::testing::compile_lark(text, std::move(options));
}

// "[symbol start end child...]" with rule ids, for failure messages.
std::string tree_dump(const ForestGrammar& grammar, const DerivationTree& tree) {
  std::string out = "[" + grammar.lr_grammar().name(tree.symbol) + " " +
                    std::to_string(tree.start) + " " + std::to_string(tree.end);
  if (!tree.is_leaf()) out += " r" + std::to_string(tree.rule);
  for (const TreeRef& child : tree.children) out += " " + tree_dump(grammar, *child);
  return out + "]";
}

// Checks the forest of one terminal string against the independent count and the listed trees.
// Returns the count.
SpanDerivationCounter::Count check_text(const ForestGrammar& grammar,
                                        const std::vector<SymbolId>& text,
                                        const std::string& context) {
  INFO(context);
  std::vector<std::vector<SymbolId>> tokens;
  for (const SymbolId t : text) tokens.push_back({t});
  SpanDerivationCounter reference(grammar.grammar(), tokens);
  const SpanDerivationCounter::Count expected = reference.count_sentence();
  const std::optional<ForestParse> parse = parse_terminals(grammar.table(), text);
  const bool sentence = expected.infinite || expected.value > 0;
  REQUIRE(parse.has_value() == sentence);
  if (!parse) return expected;
  REQUIRE(parse->derivations.infinite == expected.infinite);
  if (!expected.infinite) REQUIRE(parse->derivations.value == expected.value);

  constexpr std::size_t kLimit = 12;
  const std::vector<TreeRef> trees = enumerate_trees(parse->forest, parse->root, kLimit);
  REQUIRE_FALSE(trees.empty());
  if (!expected.infinite && expected.value <= kLimit) REQUIRE(trees.size() == expected.value);
  for (std::size_t i = 0; i < trees.size(); ++i) {
    INFO("tree " << tree_dump(grammar, *trees[i]));
    REQUIRE(is_valid_derivation(grammar.lr_grammar(), *trees[i]));
    REQUIRE(tree_yield(*trees[i]) == text);
    REQUIRE(forest_contains(parse->forest, *trees[i]));
    for (std::size_t j = 0; j < i; ++j) REQUIRE_FALSE(same_tree(*trees[i], *trees[j]));
  }
  return expected;
}

TEST_CASE("derivation counts equal an independent count on random grammars, every string up to 5") {
  std::mt19937 rng(20261126);
  std::size_t grammars = 0;
  std::size_t texts = 0;
  std::size_t sentences = 0;
  std::size_t infinite = 0;
  std::size_t ambiguous = 0;
  std::size_t with_epsilon = 0;
  std::size_t with_hidden_left_recursion = 0;
  while (grammars < 100) {
    const std::string text = glrmask::testing::random_lark_grammar(rng);
    std::shared_ptr<const CompiledGrammar> compiled;
    try {
      compiled = compile(text);
    } catch (const Error&) {
      continue;  // the start symbol derives nothing
    }
    ++grammars;
    const ForestGrammar grammar(compiled);
    const CfgNormalization& normalization = compiled->normalization();
    if (!normalization.found.empty() &&
        normalization.found_text.find("hidden left recursion") != std::string::npos)
      ++with_hidden_left_recursion;
    for (const Rule& rule : compiled->grammar().rules())
      if (rule.rhs.empty()) {
        ++with_epsilon;
        break;
      }
    std::vector<SymbolId> alphabet;
    for (SymbolId t = 0; t < compiled->grammar().num_terminals(); ++t) alphabet.push_back(t);
    for (const std::vector<SymbolId>& input : glrmask::testing::all_strings(alphabet, 5)) {
      const auto count = check_text(grammar, input, text);
      ++texts;
      if (count.infinite || count.value > 0) ++sentences;
      if (count.infinite) ++infinite;
      if (!count.infinite && count.value > 1) ++ambiguous;
    }
  }
  INFO(texts << " texts, " << sentences << " sentences, " << infinite << " infinite, " << ambiguous
             << " ambiguous, " << with_epsilon << " grammars with ε-rules, "
             << with_hidden_left_recursion << " with hidden left recursion");
  CHECK(texts > 5000);
  CHECK(sentences > 500);
  CHECK(infinite > 20);
  CHECK(ambiguous > 50);
  CHECK(with_epsilon > 10);
  CHECK(with_hidden_left_recursion > 0);
}

TEST_CASE("e: e + e | NUM has Catalan-many derivations, exactly, past 64 bits") {
  const auto compiled = compile("start: e\ne: e \"+\" e | NUM\nNUM: /[0-9]/\n");
  const ForestGrammar grammar(compiled);
  std::string text = "1";
  boost::multiprecision::cpp_int catalan = 1;  // Catalan(n - 1) trees for n operands
  for (int operands = 1; operands <= 45; ++operands) {
    if (operands > 1) {
      text += "+1";
      const int n = operands - 1;
      catalan = catalan * 2 * (2 * n - 1) / (n + 1);
    }
    const ForestParse parse = parse_forest(grammar, text);
    REQUIRE_FALSE(parse.derivations.infinite);
    REQUIRE(parse.derivations.value == catalan);
  }
  REQUIRE(catalan.str() == "583300119592996693088040");  // Catalan(44) > 2^64
}

TEST_CASE("the dangling else has two trees, printed as Lark prints them") {
  const auto compiled = glrmask::testing::load_session_fixture("../glr/dangling_else.lark");
  const ForestGrammar grammar(compiled);
  const ForestParse parse = parse_forest(grammar, "iiaea");
  REQUIRE(parse.derivations.str() == "2");
  const auto trees = enumerate_trees(parse.forest, parse.root, 10);
  REQUIRE(trees.size() == 2);
  auto text = [](std::uint32_t i) { return std::string(1, "iiaea"[i]); };
  std::vector<std::string> printed;
  for (const TreeRef& tree : trees)
    printed.push_back(lark_pretty(shape_tree(*tree, grammar, text, false)));
  std::sort(printed.begin(), printed.end());
  CHECK(printed[0] == "start\n  i\n  start\n    i\n    start\ta\n    e\n    start\ta\n");
  CHECK(printed[1] == "start\n  i\n  start\n    i\n    start\ta\n  e\n  start\ta\n");
  // With Lark's shaping the anonymous literals are filtered out.
  CHECK(lark_pretty(shape_tree(*trees[0], grammar, text, true)).find("\ti") == std::string::npos);
}

TEST_CASE("Lark's shaping: ?rule inlined, _rule spliced, aliases, !rule keeps tokens") {
  const auto compiled = compile(
      "start: item+\n?item: pair | NAME\npair: NAME \"=\" _value -> assign\n_value: NAME\n"
      "!keep: NAME \"=\"\nNAME: /[a-z]+/\n%ignore \" \"\n");
  const ForestGrammar grammar(compiled);
  const std::string input = "a b = c d";
  const ForestParse parse = parse_forest(grammar, input);
  REQUIRE(parse.derivations.str() == "1");
  const auto trees = enumerate_trees(parse.forest, parse.root, 2);
  auto token_text = [&](std::uint32_t i) {
    return input.substr(parse.lexemes[i].begin, parse.lexemes[i].end - parse.lexemes[i].begin);
  };
  CHECK(lark_pretty(shape_tree(*trees[0], grammar, token_text)) ==
        "start\n  a\n  assign\n    b\n    c\n  d\n");
}

TEST_CASE("a cyclic grammar has infinitely many derivations, and the listed trees go around once") {
  const auto compiled = glrmask::testing::load_session_fixture("cyclic.lark");
  const ForestGrammar grammar(compiled);
  // The forest is built over the rules as written, although the decoding automaton is
  // normalized.
  REQUIRE(compiled->normalization().normalized);
  const ForestParse parse = parse_forest(grammar, "a a");
  CHECK(parse.derivations.infinite);
  CHECK(parse.derivations.str() == "infinite");
  const auto trees = enumerate_trees(parse.forest, parse.root, 1000);
  CHECK(trees.size() > 2);
  CHECK(trees.size() < 1000);
  for (const TreeRef& tree : trees) CHECK(is_valid_derivation(grammar.lr_grammar(), *tree));
}

TEST_CASE("a lexical tie is two leaves, an ignored alternative or a skippable terminal none") {
  {
    // "if" lexes as {IF, NAME}: `if x` is IF NAME, or NAME followed by... nothing that parses.
    const auto compiled = glrmask::testing::load_session_fixture("keyword_ties.lark");
    const ForestGrammar grammar(compiled);
    CHECK(parse_forest(grammar, "if x").derivations.str() == "1");
    CHECK(parse_forest(grammar, "if = x").derivations.str() == "1");
  }
  {
    // Both readings of "if" parse when the grammar allows both.
    const auto compiled = compile("start: IF | NAME\nIF: /if/\nNAME: /[a-z]+/\n%ignore \" \"\n");
    const ForestGrammar grammar(compiled);
    const ForestParse parse = parse_forest(grammar, "if");
    CHECK(parse.derivations.str() == "2");
    SpanDerivationCounter reference(
        compiled->grammar(),
        {{*compiled->grammar().find_symbol("IF"), *compiled->grammar().find_symbol("NAME")}});
    CHECK(reference.count_sentence().value == 2);
  }
  {
    // "#x" is an ignored COMMENT or a TAG: skipping it and taking it as a TAG both parse.
    const auto compiled = glrmask::testing::load_session_fixture("ignored_tie.lark");
    const ForestGrammar grammar(compiled);
    const ForestParse parse = parse_forest(grammar, "a #x b;");
    CHECK(parse.derivations.str() == "2");
    for (const TreeRef& tree : enumerate_trees(parse.forest, parse.root, 5))
      CHECK(is_valid_derivation(grammar.lr_grammar(), *tree, /*allow_gaps=*/true));
  }
  {
    const auto compiled =
        glrmask::testing::load_session_fixture("skippable_eos.lark", {.skippable = {"EOS"}});
    const ForestGrammar grammar(compiled);
    const std::string text = glrmask::testing::read_file(glrmask::testing::fixtures_dir() /
                                                         "glr_session" / "skippable_eos.lark");
    (void)text;
  }
}

TEST_CASE("live readings count the stacks of a prefix, and a sentence's equal its derivations") {
  const auto compiled = compile("start: e\ne: e \"+\" e | NUM\nNUM: /[0-9]/\n");
  const ForestGrammar grammar(compiled);
  const std::string text = "1+1+1+1";
  ForestParser parser(grammar);
  const auto tokens = lexer::lex_text(compiled->dfa(), text);
  std::vector<std::string> readings;
  for (const lexer::Lexeme& token : tokens) {
    REQUIRE(parser.feed(token));
    readings.push_back(parser.live_readings().str());
  }
  // After "1": one stack [1]. After "1+": [e +]. After "1+1": [e + 1]. After "1+1+": the two
  // ways to read "1+1" as e... plus the stack [e + e +] with no reduction: 2 readings.
  CHECK(readings == std::vector<std::string>{"1", "1", "1", "2", "2", "5", "5"});
  REQUIRE(parser.finish());
  CHECK(parser.live_readings().str() == "5");
  CHECK(parser.derivations().str() == "5");
}

TEST_CASE("a text that is not a sentence is an error naming the byte offset") {
  const auto compiled = compile("start: e\ne: e \"+\" e | NUM\nNUM: /[0-9]/\n");
  const ForestGrammar grammar(compiled);
  CHECK_THROWS_WITH(parse_forest(grammar, "1++1"),
                    Catch::Contains("byte offset 2") && Catch::Contains("\"+\""));
  CHECK_THROWS_WITH(parse_forest(grammar, "1+"), Catch::Contains("byte offset 2 (end of input)"));
}

}  // namespace
}  // namespace glrmask::glr
