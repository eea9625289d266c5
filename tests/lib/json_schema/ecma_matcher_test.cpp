// ecma_search (lib/json_schema/ecma_regex.h): a pattern evaluated on a concrete string by the
// automaton over code points (pattern_nfa.h), with the backtracking fallback for lookaround and
// backreferences on short ASCII values only, and the enum filtering it decides end to end.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/pattern_nfa.h"

using namespace glrmask;
using json_schema::ecma_search;

namespace {

const std::string kMatcherWhere = "s.json#/pattern";

bool matcher_search(const std::string& pattern, const std::string& text) {
  return ecma_search(pattern, text, kMatcherWhere);
}

std::string matcher_error(const std::string& pattern, const std::string& text) {
  try {
    (void)ecma_search(pattern, text, kMatcherWhere);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool matcher_grammar_accepts(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                             const std::string& instance) {
  glr::Session session(grammar);
  return session.try_commit_bytes(instance) && session.is_accepting();
}

}  // namespace

TEST_CASE("ecma matcher: classes compare characters, not UTF-8 bytes") {
  CHECK(matcher_search("^[é-ü]+$", "ö"));
  CHECK(matcher_search("^[é-ü]+$", "éü"));
  CHECK_FALSE(matcher_search("^[é-ü]+$", "a"));
  // U+00FF shares its lead byte with é and ü and has its second byte inside theirs.
  CHECK_FALSE(matcher_search("^[é-ü]+$", "ÿ"));
  CHECK(matcher_search("^[^é]$", "ü"));
  CHECK_FALSE(matcher_search("^[^é]$", "é"));
}

TEST_CASE("ecma matcher: Unicode properties and escapes in the pattern") {
  CHECK(matcher_search("^\\p{Lu}+$", "ÀΣB"));
  CHECK_FALSE(matcher_search("^\\p{Lu}+$", "àB"));
  CHECK(matcher_search("^\\P{Lu}$", "à"));
  CHECK(matcher_search("^[\\p{L}\\d]+$", "Ωmega3"));
  CHECK(matcher_search("^caf\\u00e9$", "café"));
  CHECK_FALSE(matcher_search("^caf\\u00e9$", "cafe"));
  CHECK(matcher_search("^\\x41$", "A"));
  // \d \w are ASCII (pattern.h); '.' excludes the line terminators.
  CHECK_FALSE(matcher_search("^\\d$", "٣"));
  CHECK_FALSE(matcher_search("^\\w$", "é"));
  CHECK_FALSE(matcher_search("^.$", "\n"));
  CHECK_FALSE(matcher_search("^.$", "\u2028"));
}

TEST_CASE("ecma matcher: a character outside the BMP is one character") {
  CHECK(matcher_search("^.$", "😀"));
  CHECK_FALSE(matcher_search("^..$", "😀"));
  CHECK(matcher_search("^[😀-😂]$", "😁"));
  CHECK_FALSE(matcher_search("^[😀-😂]$", "😃"));
  CHECK(matcher_search("^.{3}$", "a😀é"));
}

TEST_CASE("ecma matcher: a pattern searches unless anchored") {
  CHECK(matcher_search("a", "bab"));
  CHECK_FALSE(matcher_search("a", "bbb"));
  CHECK(matcher_search("^a$", "a"));
  CHECK_FALSE(matcher_search("^a$", "bab"));
  CHECK_FALSE(matcher_search("^a$", "a\n"));  // $ is the end of the text, not of a line
  CHECK(matcher_search("^a", "ab"));
  CHECK_FALSE(matcher_search("^a", "ba"));
  CHECK(matcher_search("a$", "ba"));
  CHECK_FALSE(matcher_search("a$", "ab"));
  // Each top-level alternative has its own anchors.
  CHECK(matcher_search("^a|b$", "ax"));
  CHECK(matcher_search("^a|b$", "xb"));
  CHECK_FALSE(matcher_search("^a|b$", "xa"));
  CHECK(matcher_search("", "anything"));
  CHECK(matcher_search("^$", ""));
  CHECK_FALSE(matcher_search("^$", "x"));
}

TEST_CASE("ecma matcher: counted repetitions are exact") {
  CHECK(matcher_search("^(ab){2,3}$", "abab"));
  CHECK(matcher_search("^(ab){2,3}$", "ababab"));
  CHECK_FALSE(matcher_search("^(ab){2,3}$", "ab"));
  CHECK_FALSE(matcher_search("^(ab){2,3}$", "abababab"));
  CHECK(matcher_search("^a{3}$", "aaa"));
  CHECK_FALSE(matcher_search("^a{3}$", "aaaa"));
  CHECK(matcher_search("^a{2,}$", "aaaaa"));
  CHECK_FALSE(matcher_search("^a{2,}$", "a"));
  CHECK(matcher_search("^(?:é|x){0,2}?$", "éx"));
  CHECK(matcher_search("^x{$", "x{"));  // a literal brace (Annex B)
  CHECK(matcher_search("^(|a)+$", "aa"));
  CHECK(matcher_search("^a{0}$", ""));
}

TEST_CASE("ecma matcher: long texts and ambiguous repetitions take linear time") {
  const std::string long_text(20000, 'a');
  CHECK(matcher_search("^(a|b)*$", long_text));
  CHECK_FALSE(matcher_search("^(a|b)*$", long_text + "c"));
  const std::string ambiguous = std::string(48, 'a') + "c";
  CHECK_FALSE(matcher_search("^(a|aa)*$", ambiguous));
  CHECK(matcher_search("^(a|aa)*$", std::string(48, 'a')));
  CHECK(matcher_search("(a|aa)*c", ambiguous));
}

TEST_CASE("ecma matcher: a pattern too large for the automaton is refused") {
  using Catch::Matchers::Contains;
  CHECK_THAT(matcher_error("(a{1000}){1000}", "a"),
             Contains(kMatcherWhere) && Contains("too large to evaluate"));
  try {
    (void)ecma_search("((a{100000}){100000}){100000}", "a", kMatcherWhere);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kLimit);
    CHECK(e.where().json_pointer == "/pattern");
  }
  CHECK(matcher_search("^a{1000}$", std::string(1000, 'a')));
  CHECK(json_schema::PatternNfa::kMaxStates == 200000);
}

TEST_CASE("ecma matcher: lookaround and backreferences go to the backtracking machine on ASCII") {
  CHECK(matcher_search("^(?!a)", "cd"));
  CHECK_FALSE(matcher_search("^(?!a)", "ab"));
  CHECK(matcher_search("^(a)\\1$", "aa"));
  CHECK_FALSE(matcher_search("^(a)\\1$", "ab"));
  CHECK(matcher_search("\\bcd", "ab cd"));
  CHECK(matcher_search("a^|b", "b"));  // an anchor inside the pattern
  CHECK(matcher_search("^(?=.{2}$)", std::string(2, 'x')));
}

TEST_CASE("ecma matcher: lookaround on a non-ASCII or long value is refused") {
  using Catch::Matchers::Contains;
  CHECK_THAT(matcher_error("^(?!a)", "é"), Contains(kMatcherWhere) && Contains("column 2") &&
                                               Contains("lookaround cannot be evaluated"));
  CHECK_THAT(matcher_error("^(?!é)", "b"), Contains("lookaround cannot be evaluated"));
  CHECK_THAT(matcher_error("^(?!a)", std::string(json_schema::kMaxFallbackBytes + 1, 'b')),
             Contains("lookaround cannot be evaluated"));
  CHECK(matcher_search("^(?!a)", std::string(json_schema::kMaxFallbackBytes, 'b')));
  CHECK_THAT(matcher_error("(a)\\1", "é"), Contains("backreference cannot be evaluated"));
  CHECK_THAT(matcher_error("\\bé", "é"), Contains("word boundary cannot be evaluated"));
  // A malformed pattern keeps the translator's message and column.
  CHECK_THAT(matcher_error("(ab", "ab"),
             Contains(kMatcherWhere + ": pattern column 4") && Contains("missing )"));
  CHECK_THAT(matcher_error("a", "\xff"), Contains("not valid UTF-8"));
}

TEST_CASE("ecma matcher: an enum is filtered by a non-ASCII class pattern") {
  const auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
      R"({"enum": ["ö", "a", "é", "ÿ", "éü"], "pattern": "^[é-ü]+$"})", "s.json"));
  CHECK(matcher_grammar_accepts(grammar, "\"ö\""));
  CHECK(matcher_grammar_accepts(grammar, "\"é\""));
  CHECK(matcher_grammar_accepts(grammar, "\"éü\""));
  CHECK_FALSE(matcher_grammar_accepts(grammar, "\"a\""));
  CHECK_FALSE(matcher_grammar_accepts(grammar, "\"ÿ\""));
  CHECK_FALSE(matcher_grammar_accepts(grammar, "\"ü\""));  // not listed

  // A lookahead still filters ASCII values through the fallback.
  const auto lookahead = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
      R"js({"enum": ["ab", "cd"], "pattern": "^(?!a)"})js", "s.json"));
  CHECK(matcher_grammar_accepts(lookahead, "\"cd\""));
  CHECK_FALSE(matcher_grammar_accepts(lookahead, "\"ab\""));
}
