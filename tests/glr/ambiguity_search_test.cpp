// The grammar-wide ambiguity search (glr/analysis/ambiguity_search.h) and its text
// (glr/analysis/terminal_text.h): sentences grouped by the nonterminal whose derivations differ,
// with the phrase it spans; the lexer's ties with examples; terminal strings written as text that
// lexes back.
#include "glr/analysis/ambiguity_search.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "glr/analysis/forest_grammar.h"
#include "glr/analysis/terminal_text.h"
#include "glr/compiled_grammar.h"
#include "lexer/runtime/streaming_lexer.h"
#include "tests/support/glr_session_support.h"

namespace glrmask::glr {
namespace {

struct Found {
  std::string nonterminal;
  std::size_t phrase_length;
  std::size_t sentence_length;
};

std::vector<Found> by_nonterminal(const std::string& lark) {
  const auto compiled = testing::compile_lark(lark);
  const ForestGrammar grammar(compiled);
  const AmbiguityReport report = find_ambiguities(grammar.automaton(), {});
  std::vector<Found> found;
  for (const AmbiguousSentence& s : report.by_nonterminal) {
    CHECK(s.verdict.kind == ConflictClass::kAmbiguous);
    CHECK(s.first->symbol == s.nonterminal);
    CHECK(s.second->symbol == s.nonterminal);
    CHECK_FALSE(same_tree(*s.first, *s.second));
    CHECK(tree_yield(*s.first) == tree_yield(*s.second));
    found.push_back({grammar.lr_grammar().name(s.nonterminal), s.end - s.start, s.length});
  }
  return found;
}

TEST_CASE("ambiguous sentences are grouped by the nonterminal whose derivations differ") {
  // The ambiguity is inside the parentheses: the phrase is the five terminals of e.
  auto found = by_nonterminal("start: \"(\" e \")\"\ne: e \"+\" e | NUM\nNUM: /[0-9]/\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].nonterminal == "e");
  CHECK(found[0].phrase_length == 5);
  CHECK(found[0].sentence_length == 7);

  // Two independent ambiguities, each found at its own nonterminal.
  found = by_nonterminal(
      "start: a \";\" b\na: a \"+\" a | \"x\"\nb: \"i\" b | \"i\" b \"e\" b | \"y\"\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].nonterminal == "a");
  CHECK(found[0].phrase_length == 5);
  CHECK(found[1].nonterminal == "b");
  CHECK(found[1].phrase_length == 5);  // the shortest dangling else: i i y e y
}

TEST_CASE("an ambiguity over the empty phrase is found at its nonterminal") {
  const auto found = by_nonterminal("start: a \"x\"\na: b | c\nb:\nc:\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].nonterminal == "a");
  CHECK(found[0].phrase_length == 0);
  CHECK(found[0].sentence_length == 1);
}

TEST_CASE("a cyclic grammar's ambiguity is found over the rules as written") {
  const auto found = by_nonterminal("start: s\ns: s s | \"a\" |\n");
  REQUIRE_FALSE(found.empty());
  CHECK(found[0].nonterminal == "s");
}

TEST_CASE("lexical ties come with an example, and an ignored alternative is said") {
  {
    const auto grammar = testing::load_session_fixture("keyword_ties.lark");
    const TerminalText text(grammar->dfa());
    const auto ties = lexical_ties(grammar->dfa(), text);
    REQUIRE(ties.size() == 1);
    CHECK(ties[0].example == "if");
    CHECK_FALSE(ties[0].with_ignored);
  }
  {
    const auto grammar = testing::load_session_fixture("ignored_tie.lark");
    const TerminalText text(grammar->dfa());
    const auto ties = lexical_ties(grammar->dfa(), text);
    REQUIRE(ties.size() == 1);
    CHECK(ties[0].example == "#a");
    CHECK(ties[0].with_ignored);
  }
}

TEST_CASE("terminal strings are written as text that lexes back to them") {
  const auto grammar = testing::load_session_fixture("keyword_ties.lark");
  const TerminalText text(grammar->dfa());
  const GrammarModel& model = grammar->grammar();
  const SymbolId name = lr_terminal(*model.find_symbol("NAME"));
  const SymbolId keyword = lr_terminal(*model.find_symbol("IF"));
  const SymbolId equals = [&] {
    for (SymbolId t = 0; t < model.num_terminals(); ++t)
      if (model.terminal(grammar_terminal(t)).literal == "=") return t;
    return SymbolId{0};
  }();
  // NAME NAME joined would be one NAME; the ignored " " separates them.
  CHECK(text.realize(std::vector<SymbolId>{name, name}) == "a a");
  CHECK(text.realize(std::vector<SymbolId>{keyword, name, equals, name}) == "if a = a");
  for (const auto& terminals :
       {std::vector<SymbolId>{name, equals, name}, std::vector<SymbolId>{keyword, keyword}}) {
    const auto realized = text.realize(terminals);
    REQUIRE(realized);
    const auto tokens = lexer::lex_text(grammar->dfa(), *realized);
    REQUIRE(tokens.size() == terminals.size());
  }
}

}  // namespace
}  // namespace glrmask::glr
