// The GLR recognizer and the session's viability rule against an independent definition, on small
// grammars that exercise what GLR parsers get wrong: ambiguity, ε-rules, hidden left and right
// recursion, cycles, lexical ties, fall-back, ignored alternatives and skippable terminals.
//
// The reference: enumerate every text made of up to L pieces; a text is a sentence iff the
// project's lexer (lex_text) and an Earley recognizer written from the grammar model accept it.
// A text is viable iff it is a byte prefix of such a sentence. Texts of at most L - K pieces are
// checked, where every viable text of the grammar has a completion of at most K pieces (argued per
// grammar below), so the enumeration decides their viability exactly.
#include <catch2/catch.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "tests/support/glr_session_support.h"

using namespace glrmask;
using glrmask::testing::error_offset;
using glrmask::testing::load_session_fixture;
using glrmask::testing::reference_verdict;

namespace {

struct Enumeration {
  std::vector<std::string> pieces;
  int max_pieces;         // L
  int completion_pieces;  // K
};

void for_each_text(const std::vector<std::string>& pieces, int max_pieces,
                   const std::function<void(const std::string&, int)>& visit) {
  std::function<void(std::string&, int)> extend = [&](std::string& text, int used) {
    visit(text, used);
    if (used == max_pieces) return;
    for (const std::string& piece : pieces) {
      text += piece;
      extend(text, used + 1);
      text.resize(text.size() - piece.size());
    }
  };
  std::string text;
  extend(text, 0);
}

void check_against_reference(const std::string& fixture, const Enumeration& e,
                             glr::ParseOptions options = {}) {
  INFO("fixture " << fixture);
  const auto grammar = load_session_fixture(fixture, options);
  std::set<std::string> sentences;
  std::set<std::string> viable;
  for_each_text(e.pieces, e.max_pieces, [&](const std::string& text, int) {
    if (sentences.count(text) || !reference_verdict(*grammar, text).accepted) return;
    sentences.insert(text);
    for (std::size_t n = 0; n <= text.size(); ++n) viable.insert(text.substr(0, n));
  });
  REQUIRE_FALSE(sentences.empty());

  const auto recognizer = std::make_shared<const glr::IncrementalRecognizer>(grammar);
  std::set<std::string> checked;
  std::size_t rejected = 0;
  for_each_text(e.pieces, e.max_pieces - e.completion_pieces, [&](const std::string& text, int) {
    if (!checked.insert(text).second) return;
    INFO("text \"" << text << "\"");
    // The longest viable prefix: where a rejection must be reported.
    std::size_t viable_length = 0;
    while (viable_length < text.size() && viable.count(text.substr(0, viable_length + 1)))
      ++viable_length;

    glr::Session whole(recognizer);
    long long whole_offset = -1;
    try {
      whole.commit_bytes(text);
    } catch (const Error& error) {
      whole_offset = error_offset(error.what());
      REQUIRE(whole_offset >= 0);
      CHECK(whole.byte_offset() == 0);  // unchanged by the failed commit
    }
    const bool is_viable = viable.count(text) != 0;
    REQUIRE((whole_offset < 0) == is_viable);
    if (is_viable) {
      CHECK(whole.is_accepting() == (sentences.count(text) != 0));
    } else {
      ++rejected;
      CHECK(whole_offset == static_cast<long long>(viable_length));
    }

    // Byte by byte: the same verdict, the first refused byte is the reported offset.
    glr::Session bytes(recognizer);
    std::size_t accepted_bytes = 0;
    while (accepted_bytes < text.size() &&
           bytes.try_commit_bytes(std::string_view(text).substr(accepted_bytes, 1)))
      ++accepted_bytes;
    if (is_viable) {
      CHECK(accepted_bytes == text.size());
      CHECK(bytes.is_accepting() == whole.is_accepting());
    } else {
      CHECK(static_cast<long long>(accepted_bytes) == whole_offset);
    }
  });
  CHECK(rejected > 0);  // the enumeration really tests both verdicts
}

}  // namespace

TEST_CASE("ambiguous e: e + e | NUMBER matches Earley") {
  // Every viable text completes within 1 piece ("1" after a "+").
  check_against_reference("ambiguous_sum.lark", {{"1", "2", "+", " "}, 7, 2});
}

TEST_CASE("epsilon rules match Earley") {
  // start: a b c with every part nullable: after any viable text, "z" or nothing completes it.
  check_against_reference("epsilon_rules.lark", {{"x", "y", "z", " "}, 7, 2});
}

TEST_CASE("hidden left recursion matches Earley") {
  // A viable text of m pieces needs at most m + 1 more ("y" and an "x" per "n"): check up to 4
  // of 9.
  check_against_reference("hidden_left_recursion.lark", {{"n", "y", "x"}, 9, 5});
}

TEST_CASE("hidden right recursion (right-nullable rules) matches Earley") {
  // Every viable text is a sentence or needs one "a".
  check_against_reference("hidden_right_recursion.lark", {{"a", "b", " "}, 8, 2});
}

TEST_CASE("a cyclic, infinitely ambiguous grammar matches Earley") {
  // Every text of "a" and spaces is a sentence; "b" is no terminal at all.
  check_against_reference("cyclic.lark", {{"a", " ", "b"}, 6, 1});
}

TEST_CASE("keyword/NAME ties: both alternatives are parsed") {
  // Completions: " a", "= a" (or "a" after "if "): at most 3 pieces.
  check_against_reference("keyword_ties.lark", {{"if", "i", "f", "a", "=", " "}, 6, 3});
}

TEST_CASE("fall-back between '.' and '...' matches Earley") {
  // Completions: "a", ". a" or "... a"-like endings: at most 3 pieces of {a, ., space}... plus the
  // dots themselves: 4.
  check_against_reference("fallback_dots.lark", {{"a", ".", " "}, 8, 4});
}

TEST_CASE("an ignored alternative of a tie means skip") {
  // "#" at the start needs "b", " ", "a", ";" (the tie is skipped as a comment, then a NAME).
  check_against_reference("ignored_tie.lark", {{"a", "#", "b", " ", ";"}, 7, 4});
}

TEST_CASE("a skippable terminal is dropped exactly where no stack can shift it") {
  // Pieces are single bytes, so every byte prefix of a text is itself a text of pieces. A viable
  // text of m pieces needs at most 2m more ("\n" and "}\n" per open block): check up to 3 of 9.
  check_against_reference("skippable_eos.lark", {{"a", "{", "}", "\n"}, 9, 6},
                          {.skippable = {"EOS"}});
}

TEST_CASE("a shadowed keyword and a fall-back after a live byte match Earley") {
  // The cross join needs a "join" that always lexes as JOIN_EXPR; "t\xc4" stays a live lexeme
  // ("tıck") until "\xb1nner" makes the fall-back to "t" the only way on. Every viable text of
  // up to 3 pieces completes within 3 more ("\xb1nner", " join", " b"). "x" completes
  // the keywords that a NAME may still become ("join cross" + "x"), " " the blanks that may
  // come first.
  check_against_reference(
      "shadowed_keyword.lark",
      {{"@ a as t", " cross", " join", " b", "\xc4", "\xb1nner", "x", " "}, 6, 3});
}
