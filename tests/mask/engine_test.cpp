// The wfa engine (Parser DWA over the GSS) against the oracle, bit for bit: at every viable prefix
// of small grammars with a hand-made vocabulary (ties, fall-back, ignored ties, ε-rules, hidden
// right recursion, derivation cycles and hidden left recursion after normalization, ambiguity with
// several GSS heads, the sixteen-hyphen token), and at every teacher-forced step of real JSON with
// Llama-3. Corpus programs are in wfa_engine_corpus_test.
#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/parser_dwa/parser_dwa_analysis.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::compare_on_prefixes;
using glrmask::testing::engine_mask;
using glrmask::testing::load_session_fixture;
using glrmask::testing::tiny_vocabulary;

using glrmask::testing::make_wfa;

namespace {

// After each prefix (twice: the second time from the engine's entry cache) the engine built
// with early-label start states and the one built without both equal the oracle; the first feeds
// nothing to the GLR parser, the second feeds the entry's early label.
void require_early_labels_by_start_states(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary,
    std::initializer_list<const char*> prefixes) {
  const auto counter = [](const mask::MaskEngine& engine, std::string_view name) {
    for (const mask::EngineCounter& c : engine.last_step_counters())
      if (c.name == name) return c.value;
    FAIL("no counter " << name);
    return 0.0;
  };
  mask::ParserDwaOptions without;
  without.early_label_starts = false;
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine with_starts(grammar, vocabulary);
  mask::WfaEngine feeding(mask::CompiledMask::compile(grammar, vocabulary, without), vocabulary);
  CHECK(with_starts.compiled().parser_dwa().num_early_starts() > 0);
  CHECK(feeding.compiled().parser_dwa().num_early_starts() == 0);
  for (const char* prefix : prefixes) {
    INFO("prefix " << prefix);
    glr::Session session(grammar, &vocabulary);
    REQUIRE(session.try_commit_bytes(prefix));
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    for (int round = 0; round < 2; ++round) {
      CHECK(engine_mask(with_starts, session, vocabulary) == expected);
      CHECK(counter(with_starts, "early_label_entries") == 1);
      CHECK(counter(with_starts, "early_label_feeds") == 0);
      CHECK(engine_mask(feeding, session, vocabulary) == expected);
      CHECK(counter(feeding, "early_label_entries") == 1);
      CHECK(counter(feeding, "early_label_feeds") == 1);
    }
  }
}

}  // namespace

TEST_CASE("wfa = oracle on small grammars with a hand-made vocabulary") {
  CHECK(compare_on_prefixes(make_wfa, "ambiguous_sum.lark", "12+ ", 5) > 0);
  CHECK(compare_on_prefixes(make_wfa, "fallback_dots.lark", "a. ", 6) > 0);
  CHECK(compare_on_prefixes(make_wfa, "keyword_ties.lark", "ifa= ", 4) > 0);
  CHECK(compare_on_prefixes(make_wfa, "ignored_tie.lark", "a# ;", 5) > 0);
  CHECK(compare_on_prefixes(make_wfa, "epsilon_rules.lark", "xyz ", 5) > 0);
  CHECK(compare_on_prefixes(make_wfa, "hidden_right_recursion.lark", "ab ", 6) > 0);
}

// The early labels of an entry (an accepted lexeme that may still go on: "a" in `a = b`, the
// keyword tie "if") are shifted by start states of their own; where the automaton has none the
// engine feeds them to the GLR parser. Both must equal the oracle, and the counters must show
// which one ran.
TEST_CASE("wfa: early labels, by their start states or fed to the parser, equal the oracle") {
  mask::ParserDwaOptions without;
  without.early_label_starts = false;
  const glrmask::testing::EngineFactory make_feeding =
      [&](const std::shared_ptr<const glr::CompiledGrammar>& grammar,
          const Vocabulary& vocabulary) -> std::unique_ptr<mask::MaskEngine> {
    return std::make_unique<mask::WfaEngine>(
        mask::CompiledMask::compile(grammar, vocabulary, without), vocabulary);
  };
  CHECK(compare_on_prefixes(make_feeding, "keyword_ties.lark", "ifa= ", 4) > 0);
  CHECK(compare_on_prefixes(make_feeding, "fallback_dots.lark", "a. ", 6) > 0);
  CHECK(compare_on_prefixes(make_feeding, "ignored_tie.lark", "a# ;", 5) > 0);
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  CHECK(compare_on_prefixes(make_feeding, "skippable_eos.lark", "a{}\n; ", 4, skippable) > 0);

  // After "if" and after "a" the lexeme may go on ("iff", "ab") or end here.
  require_early_labels_by_start_states(load_session_fixture("keyword_ties.lark"),
                                       tiny_vocabulary({"if", "a", "=", " ", "i", "f"}),
                                       {"if", "if a", "a"});
}

// Go's EOS is a run of newlines, so after one the lexeme may go on and the next token's entry
// carries EOS as an early label; EOS is skippable, shifted or dropped by the stack. The automaton
// has start states for such labels too (the early label is fed with the session's rule for
// skippable terminals), so the engine does not feed them to the parser.
TEST_CASE("wfa: skippable early labels have start states and equal the oracle") {
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  CHECK(compare_on_prefixes(make_wfa, "skippable_eos_runs.lark", "a(+)\n{}", 5, skippable) > 100);

  const auto grammar = load_session_fixture("skippable_eos_runs.lark", skippable);
  const Vocabulary vocabulary =
      tiny_vocabulary({"a", "\n", "(", ")", "+", "{", "}", "\n\n", "a\n"});
  CHECK(mask::CompiledMask::compile(grammar, vocabulary)->parser_dwa().stats().guarded_states > 0);
  // At statement level the newline ends the statement; inside parentheses it is dropped.
  require_early_labels_by_start_states(grammar, vocabulary, {"a\n", "(a\n", "{a\n", "a+(a\n"});
}

TEST_CASE("wfa: the ambiguous grammar really puts several heads on the GSS") {
  // The comparison above is only a test of the GSS walk if some prefix has several stacks.
  const auto grammar = load_session_fixture("ambiguous_sum.lark");
  const Vocabulary vocabulary = tiny_vocabulary({"1", "+", "2", " "});
  glr::Session session(grammar, &vocabulary);
  REQUIRE(session.try_commit_bytes("1+2+1"));
  std::size_t below = 0;
  for (const glr::GssNodeRef& head : session.heads()) below += head->below().size();
  CHECK(session.heads().size() + below > 2);  // merged stacks: several heads or shared tops
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine engine(grammar, vocabulary);
  CHECK(engine_mask(engine, session, vocabulary) == engine_mask(oracle, session, vocabulary));
}

TEST_CASE("wfa = oracle with a skippable terminal (SynCode's Go EOS convention)") {
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  CHECK(compare_on_prefixes(make_wfa, "skippable_eos.lark", "a{}\n; ", 4, skippable) > 0);
}

TEST_CASE("wfa = oracle where dropping a skippable terminal depends on the states below") {
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  // The construction must have needed guarded items, or this test checks nothing new.
  const Vocabulary vocabulary = glrmask::testing::prefix_vocabulary("a(+)\n{}");
  const auto grammar = load_session_fixture("skippable_eos_nested.lark", skippable);
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  CHECK(compiled->parser_dwa().stats().guarded_states > 0);
  CHECK(compare_on_prefixes(make_wfa, "skippable_eos_nested.lark", "a(+)\n{}", 5, skippable) > 100);
}

TEST_CASE("wfa = oracle where a state inside a lexeme looks like the start state") {
  CHECK(compare_on_prefixes(make_wfa, "start_state_lookalike.lark", "ab", 5) > 10);
}

TEST_CASE("wfa: skippable terminals are refused where the session can hold two stacks") {
  // The session drops a skippable terminal only when no stack can shift it; with a forking cell
  // (GLR policy on an ambiguous grammar) or a lexical tie that is a condition over several
  // stacks, which the automaton cannot see.
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  const Vocabulary vocabulary = glrmask::testing::prefix_vocabulary("ab;\n");
  const auto grammar = glrmask::testing::compile_lark(
      "start: (s EOS)+\ns: s s | \"a\" | \"b\"\nEOS: /[;\\n]/\n", skippable);
  REQUIRE(grammar->table().num_conflict_cells() > 0);
  try {
    mask::CompiledMask::compile(grammar, vocabulary);
    FAIL("compiled");
  } catch (const Error& error) {
    CHECK_THAT(error.what(), Catch::Contains("'EOS'") && Catch::Contains("forks on terminal"));
  }
}

TEST_CASE("wfa: derivation cycles and hidden left recursion are normalized, or refused") {
  // Both make reductions that never end. The compiled grammar rewrites them away
  // (glr/cfg_normalization.h), and the wfa then equals the oracle; the detection must have
  // found them, or the comparison says nothing about them.
  for (const char* fixture : {"cyclic.lark", "hidden_left_recursion.lark"}) {
    INFO(fixture);
    const std::string alphabet = std::string(fixture) == "cyclic.lark" ? "a " : "nxy ";
    REQUIRE(load_session_fixture(fixture)->normalization().normalized);
    CHECK(compare_on_prefixes(make_wfa, fixture, alphabet, 5) > 0);
  }
  // Beyond the normalization's limits (nine nullable symbols before the recursion: 512
  // variants of the rule) the grammar stays as written and the construction says which rule
  // never ends.
  const auto grammar = glrmask::testing::compile_lark(
      "start: s\ns: n n n n n n n n n s \"x\" | \"y\"\nn: \"n\" |\n%ignore \" \"\n");
  REQUIRE_FALSE(grammar->normalization().normalized);
  try {
    mask::CompiledMask::compile(grammar, glrmask::testing::prefix_vocabulary("nxy "));
    FAIL("compiled");
  } catch (const Error& error) {
    CHECK_THAT(error.what(), Catch::Contains("never end") && Catch::Contains("rule") &&
                                 Catch::Contains("not normalized") &&
                                 Catch::Contains("hidden left recursion: s -> n n n"));
  }
}

TEST_CASE("wfa: a token of sixteen hyphens where '-' is a unary operator") {
  const auto grammar = glr::CompiledGrammar::load_lark(glrmask::testing::fixtures_dir() / "wfa" /
                                                       "unary_minus.lark");
  const std::string run(16, '-');
  const Vocabulary vocabulary =
      tiny_vocabulary({"-", "--", run, "1", "(", ")", " ", "1-", run + "1"});
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine engine(grammar, vocabulary);
  std::size_t steps_with_run = 0;
  for (const std::string& prefix :
       std::vector<std::string>{"", "1", "1-", "(", "--", "1 -", "(1-", run, "(" + run}) {
    INFO("prefix \"" << prefix << "\"");
    glr::Session session(grammar, &vocabulary);
    REQUIRE(session.try_commit_bytes(prefix));
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    glrmask::testing::require_equal_masks(engine_mask(engine, session, vocabulary), expected,
                                          vocabulary);
    if (expected.test(2)) ++steps_with_run;
  }
  CHECK(steps_with_run >= 5);  // the run is allowed wherever a unary minus may start
}

TEST_CASE("wfa: mask size and grammar are checked, a finished session allows nothing") {
  const Vocabulary vocabulary = tiny_vocabulary({"1", "+", " "});
  const auto grammar = load_session_fixture("ambiguous_sum.lark");
  mask::WfaEngine engine(grammar, vocabulary);
  CHECK(engine.name() == "wfa");
  glr::Session session(grammar, &vocabulary);
  std::vector<std::uint32_t> wrong(7);
  CHECK_THROWS_WITH(engine.fill_mask(session, wrong), Catch::Contains("words"));
  glr::Session other(load_session_fixture("ambiguous_sum.lark"), &vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  CHECK_THROWS_WITH(engine.fill_mask(other, mask.words()), Catch::Contains("another grammar"));
  session.commit(0);
  mask = engine_mask(engine, session, vocabulary);
  CHECK(mask.to_vector() == std::vector<TokenId>{0, 1, 2, 3});  // "1", "+", " ", EOS
  CHECK(!engine.last_step_counters().empty());
  session.commit(3);  // EOS
  CHECK(engine_mask(engine, session, vocabulary).count() == 0);
}

TEST_CASE("wfa: the automaton's statistics and Graphviz rendering describe what was built") {
  const Vocabulary vocabulary = tiny_vocabulary({"1", "+", "2", " ", "1+", "+2"});
  mask::WfaEngine engine(load_session_fixture("ambiguous_sum.lark"), vocabulary);
  const mask::ParserDwa& dwa = engine.compiled().parser_dwa();
  const mask::ParserDwaStats& stats = dwa.stats();
  CHECK(stats.states == dwa.num_states());
  CHECK(stats.transitions > stats.states / 2);
  CHECK(stats.distinct_weights > 0);
  CHECK(dwa.num_forks() == engine.compiled().terminal_dwa().num_forks());
  std::ostringstream dot;
  mask::write_graphviz(dwa, dot);
  CHECK_THAT(dot.str(), Catch::StartsWith("digraph parser_dwa {") && Catch::Contains(" -> "));
  // Every transition's target is a state or the dead state.
  for (const mask::ParserDwaTransition& t : dwa.all_transitions())
    CHECK((t.target == mask::ParserDwa::kDeadState || t.target.value() < dwa.num_states()));
}

// Stack summaries (mask/cache/stack_summaries.h) stand in for the walk below a pair from one step
// to the next. Summarizing from the heads down makes every pair go through them: single-edge
// chains, nodes with several edges (the ambiguous sum's heads), ε-edges inside one block (the
// ε-rules and the normalized cycles), and one engine kept across the sessions of all prefixes,
// whose freed GSS nodes come back at the addresses of summarized ones (the block serial tells them
// apart).
TEST_CASE("wfa: stack summaries at every depth = oracle") {
  for (const std::uint32_t depth : {0u, 1u}) {
    INFO("summary depth " << depth);
    const auto make = [depth](const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                              const Vocabulary& vocabulary) {
      auto engine = std::make_unique<mask::WfaEngine>(grammar, vocabulary);
      engine->set_summary_depth(depth);
      return std::unique_ptr<mask::MaskEngine>(std::move(engine));
    };
    CHECK(compare_on_prefixes(make, "ambiguous_sum.lark", "12+ ", 4) > 0);
    CHECK(compare_on_prefixes(make, "epsilon_rules.lark", "xyz ", 4) > 0);
    CHECK(compare_on_prefixes(make, "hidden_right_recursion.lark", "ab ", 5) > 0);
    CHECK(compare_on_prefixes(make, "nullable_cycles.lark", "apq ", 4) > 0);
    CHECK(compare_on_prefixes(make, "keyword_ties.lark", "ifa= ", 3) > 0);
  }
}

// docs/limits.md, finding 3: every level of a right-recursive list can still reduce, so the walk
// used to read the whole stack at every step (4.4 ms a mask at 25,000 items). With summaries a
// step reads the nodes above the summary depth and one summarized pair, however deep the list.
TEST_CASE("wfa: get_mask on a deep right-recursive list reads a bounded part of the stack") {
  const auto grammar = glrmask::testing::compile_lark(
      "start: l\nl: ITEM \",\" l | ITEM\nITEM: \"a\" | \"bb\"\n%ignore \" \"\n");
  const Vocabulary vocabulary = glrmask::testing::prefix_vocabulary("ab, ");
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine engine(grammar, vocabulary);
  mask::WfaEngine reading(grammar, vocabulary);  // the walk without summaries, for contrast
  reading.set_summary_depth(mask::WfaEngine::kNoSummaries);
  const auto pairs = [](const mask::MaskEngine& e) {
    for (const mask::EngineCounter& c : e.last_step_counters())
      if (c.name == "gss_pairs_visited") return c.value;
    FAIL("no gss_pairs_visited counter");
    return 0.0;
  };
  glr::Session session(grammar, &vocabulary);
  constexpr int kItems = 1500;
  double most_pairs = 0;
  for (int i = 0; i < kItems; ++i) {
    INFO("item " << i);
    REQUIRE(session.try_commit_bytes(i % 3 == 0 ? "bb, " : "a,"));
    // Every step through the engine keeps its summaries current; the oracle every 25th.
    const DenseMask mask = engine_mask(engine, session, vocabulary);
    if (i > 40) most_pairs = std::max(most_pairs, pairs(engine));
    if (i % 25 == 0 || i == kItems - 1) REQUIRE(mask == engine_mask(oracle, session, vocabulary));
  }
  REQUIRE(session.try_commit_bytes("a"));
  REQUIRE(engine_mask(engine, session, vocabulary) == engine_mask(oracle, session, vocabulary));
  // About the summary depth (32) plus the few new levels; the stack is 3,000 nodes deep.
  CHECK(most_pairs < 100);
  CHECK(engine_mask(reading, session, vocabulary) == engine_mask(oracle, session, vocabulary));
  CHECK(pairs(reading) > 2 * kItems);
}

TEST_CASE("wfa = oracle at every teacher-forced step: SynCode JSON (Llama-3)") {
  if (!glrmask::testing::require_data_dir("wfa_engine_test (SynCode JSON)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const auto grammar =
      glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / "json_grammar.lark");
  mask::OracleEngine oracle(vocabulary);
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  mask::WfaEngine engine(compiled, vocabulary);
  mask::WfaEngine summarizing(compiled, vocabulary);  // every pair through its stack summary
  summarizing.set_summary_depth(0);
  glrmask::testing::compare_teacher_forced(
      grammar, {&engine, &summarizing}, oracle, vocabulary, encoder,
      R"({"id": 17, "name": "Ada", "tags": ["x", "y z"], "r": -0.25e3, "n": [[[[1]]], {}]})");
  glrmask::testing::compare_teacher_forced(grammar, {&engine, &summarizing}, oracle, vocabulary,
                                           encoder,
                                           "[true, false, null, {\"a\": {}}, [], \"\\u00e9\\n\"]");
}
