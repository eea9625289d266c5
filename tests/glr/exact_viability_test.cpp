// The two cases that once made the session's viability test inexact, on a small fixture and on
// SynCode's SQL grammar: a rule that needs a terminal the lexer never emits (it must not make
// the text viable), and a fall-back that only becomes possible after a live, non-accepting byte
// (it must). Plus the compile-time report of what was dropped from the automaton.
//
// Independent justification of every verdict: the Earley reference (project lexer + Earley on
// the unpruned grammar model, tests/support/glr_session_support.h) decides the complete texts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "glr/linear_lookahead.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::compile_lark;
using glrmask::testing::error_offset;
using glrmask::testing::load_session_fixture;
using glrmask::testing::reference_verdict;

namespace {

// The offset at which the session refuses `text` (committed whole and byte by byte, which must
// agree), or -1 when it accepts it.
long long refused_at(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                     const std::string& text) {
  glr::Session whole(grammar);
  long long offset = -1;
  try {
    whole.commit_bytes(text);
  } catch (const Error& error) {
    offset = error_offset(error.what());
    REQUIRE(offset >= 0);
  }
  glr::Session bytes(grammar);
  long long accepted = 0;
  while (accepted < static_cast<long long>(text.size()) &&
         bytes.try_commit_bytes(text.substr(static_cast<std::size_t>(accepted), 1)))
    ++accepted;
  CHECK(accepted == (offset < 0 ? static_cast<long long>(text.size()) : offset));
  return offset;
}

SymbolId symbol(const glr::CompiledGrammar& grammar, const std::string& name) {
  const auto id = grammar.grammar().find_symbol(name);
  REQUIRE(id.has_value());
  return *id;
}

}  // namespace

TEST_CASE("a terminal the lexer never emits: its rules are dropped and reported") {
  const auto grammar = load_session_fixture("shadowed_keyword.lark");
  const glr::UnrealizableRules& dropped = grammar->unrealizable();
  REQUIRE(dropped.terminals.size() == 1);
  const Terminal& join = grammar->grammar().terminal(dropped.terminals[0]);
  CHECK(join.is_literal);
  CHECK(join.literal == "join");
  CHECK(join.anonymous);
  CHECK(dropped.shadowed_by[0] == "its text \"join\" lexes as JOIN_EXPR");
  const SymbolId cross_join = symbol(*grammar, "cross_join");
  CHECK(dropped.nonterminals == std::vector<SymbolId>{cross_join});
  // "cross_join: table CROSS JOIN table" and "table: cross_join", nothing else.
  REQUIRE(dropped.rules.size() == 2);
  for (const std::size_t r : dropped.rules) {
    const Rule& rule = grammar->grammar().rules()[r];
    const bool uses = std::find(rule.rhs.begin(), rule.rhs.end(), cross_join) != rule.rhs.end();
    CHECK((rule.lhs == cross_join || uses));
  }
  // The automaton has the other rules (and its augmented start rule).
  CHECK(grammar->lalr().grammar().num_rules() == grammar->grammar().rules().size() - 2 + 1);
  const std::string report = dropped.describe(grammar->grammar());
  CHECK_THAT(report, Catch::StartsWith("1 terminals; 2 rules and 1 nonterminals dropped\n"));
  CHECK_THAT(report, Catch::Contains("\n  \"join\"i (") &&
                         Catch::Contains("shadowed_keyword.lark:10:") &&
                         Catch::Contains("\n  dropped nonterminal cross_join\n"));

  // A grammar whose lexer emits everything drops nothing.
  const auto plain = load_session_fixture("keyword_ties.lark");
  CHECK(plain->unrealizable().empty());
  CHECK(plain->unrealizable().terminals.empty());
  CHECK(plain->unrealizable().describe(plain->grammar()) == "none\n");
}

TEST_CASE("a start symbol that derives nothing lexable is an error naming the terminal") {
  CHECK_THROWS_WITH(compile_lark("start: KEY \"join\"i NAME\n"
                                 "KEY.5: (\"left \")? \"join\"i\n"
                                 "NAME: /[a-z]+/\n"
                                 "%ignore \" \"\n"),
                    Catch::Contains("test.lark:1:1") && Catch::Contains("start symbol 'start'") &&
                        Catch::Contains("\"join\"i (test.lark:1:") &&
                        Catch::Contains("lexes as KEY"));
}

TEST_CASE("after a shadowed keyword's rule is dropped, its prefix is not viable") {
  const auto grammar = load_session_fixture("shadowed_keyword.lark");
  const std::string prefix = "@ a as t";
  // The grammar model has a cross join, but its "join" always lexes as JOIN_EXPR, so no text
  // completes it; the plain join does.
  CHECK_FALSE(reference_verdict(*grammar, prefix + " cross join b").accepted);
  CHECK(reference_verdict(*grammar, prefix + " join b").accepted);
  CHECK(reference_verdict(*grammar, prefix + " cross").accepted == false);
  // "c" can begin nothing else after an alias (NAME cannot follow it), so the refusal is there.
  CHECK(refused_at(grammar, prefix + " cross") == static_cast<long long>(prefix.size() + 1));
  CHECK(refused_at(grammar, prefix + " join b") == -1);
}

TEST_CASE("a fall-back that needs a live byte first keeps the text viable") {
  const auto grammar = load_session_fixture("shadowed_keyword.lark");
  const std::string prefix = "@ a as t\xc4";
  const std::string sentence = prefix + "\xb1nner join b";
  REQUIRE(reference_verdict(*grammar, sentence).accepted);  // "t" then "ınner join" (case folding)
  glr::Session session(grammar);
  session.commit_bytes(prefix);
  // The situation of the case: "t\xc4" is still a live lexeme (a prefix of "tıck"), and the
  // fall-back to "t" is only possible after a byte that does not end it.
  CHECK(session.lexer_configuration().accepted != lexer::LexerDfa::kNoLabel);
  CHECK(session.lexer_configuration().pending == "\xc4");
  CHECK_FALSE(session.is_accepting());
  session.commit_bytes("\xb1nner join b");
  CHECK(session.is_accepting());
  CHECK(refused_at(grammar, sentence) == -1);
  // After "tı" the keyword "tick" is still possible, but not after an alias: the fall-back is the
  // only way on, and "ınner" must really be what follows.
  CHECK(refused_at(grammar, prefix + "\xb1x") == static_cast<long long>(prefix.size() + 1));
}

TEST_CASE("SynCode SQL after 'FROM concert AS T': ' cross' refused, the byte 0xC4 allowed") {
  if (!glrmask::testing::require_data_dir("glr_exact_viability_test (SynCode SQL)"))
    return glrmask::testing::skip_test_case();
  const auto grammar =
      glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / "sql_grammar.lark");
  const glr::UnrealizableRules& dropped = grammar->unrealizable();
  std::vector<std::string> literals;
  for (const SymbolId t : dropped.terminals)
    literals.push_back(grammar->grammar().terminal(t).literal);
  CHECK(std::find(literals.begin(), literals.end(), "JOIN") != literals.end());
  CHECK(std::find(dropped.nonterminals.begin(), dropped.nonterminals.end(),
                  symbol(*grammar, "cross_join")) != dropped.nonterminals.end());

  const std::string prefix = "SELECT name FROM concert AS T";
  CHECK_FALSE(reference_verdict(*grammar, prefix + " cross join stadium").accepted);
  CHECK(refused_at(grammar, prefix + " cross") >= static_cast<long long>(prefix.size()));
  const std::string inner = prefix + "\xc4\xb1nner join stadium AS S ON T.a = S.b";
  REQUIRE(reference_verdict(*grammar, inner).accepted);
  CHECK(refused_at(grammar, inner) == -1);
  glr::Session session(grammar);
  CHECK(session.try_commit_bytes(prefix + "\xc4"));
}

TEST_CASE("linear_can_shift agrees with GlrParser::can_shift wherever it answers") {
  // Every head after every prefix (pieces of each fixture, up to 4) and every terminal and $END.
  struct Case {
    std::string fixture;
    std::vector<std::string> pieces;
  };
  const std::vector<Case> cases = {
      {"ambiguous_sum.lark", {"1", "+", " "}},
      {"epsilon_rules.lark", {"x", "y", "z"}},
      {"hidden_left_recursion.lark", {"n", "y", "x"}},
      {"hidden_right_recursion.lark", {"a", "b"}},
      {"cyclic.lark", {"a", " "}},
      {"shadowed_keyword.lark", {"@ a", " as t", " join", " b", "tick"}},
  };
  std::size_t answered = 0, shifts = 0, undecided = 0;
  for (const Case& c : cases) {
    INFO("fixture " << c.fixture);
    const auto grammar = load_session_fixture(c.fixture);
    const glr::GlrParser parser(grammar->table());
    std::vector<std::string> texts = {""};
    for (int length = 0; length < 4; ++length) {
      const std::size_t end = texts.size();
      for (std::size_t i = 0; i < end; ++i)
        for (const std::string& piece : c.pieces) texts.push_back(texts[i] + piece);
    }
    for (const std::string& text : texts) {
      glr::Session session(grammar);
      if (!session.try_commit_bytes(text)) continue;
      for (const glr::GssNodeRef& head : session.heads()) {
        const std::vector<glr::GssNodeRef> one = {head};
        for (glr::SymbolId t = 0; t <= grammar->end_of_input(); ++t) {
          const std::optional<bool> fast = glr::linear_can_shift(grammar->table(), *head, t);
          if (!fast) {
            ++undecided;
            continue;
          }
          INFO("text \"" << text << "\", terminal " << t);
          CHECK(*fast == parser.can_shift(one, t));
          ++answered;
          shifts += *fast ? 1 : 0;
        }
      }
    }
  }
  CHECK(shifts > 0);
  CHECK(answered > shifts);
  CHECK(undecided > 0);  // the ambiguous and cyclic grammars leave it to the GLR parser
}
