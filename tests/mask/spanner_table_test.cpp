// The spanner table's split (mask/spanner/spanner_table.h): a cell's accepted set is what can be
// justified by hand on a small grammar, it holds only tokens that every stack with that top state
// accepts, and the context-dependent rest is left to the plan. Plus the table's statistics on real
// grammars with Llama-3 (printed; the Go and Java ones are hidden: `[.stats]`).
#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::tiny_vocabulary;

namespace {

std::shared_ptr<const glr::CompiledGrammar> nested_list() {
  return glr::CompiledGrammar::load_lark(glrmask::testing::fixtures_dir() / "spanner_table" /
                                         "nested_list.lark");
}

TokenId id_of(const Vocabulary& vocabulary, const std::string& bytes) {
  for (TokenId id = 0; id < vocabulary.size(); ++id)
    if (vocabulary.bytes(id) == bytes) return id;
  FAIL("no token \"" << bytes << "\"");
  return 0;
}

std::vector<std::string> tokens_of(const Vocabulary& vocabulary, const TokenSetPool& pool,
                                   TokenSetId set) {
  std::vector<std::string> result;
  for (const TokenId id : pool.to_vector(set)) result.emplace_back(vocabulary.bytes(id));
  std::sort(result.begin(), result.end());
  return result;
}

// For every viable prefix of length <= max_prefix over the alphabet: every token of the cell
// (entry fork, head state) after the entry's early labels is in the oracle's mask. With several
// heads only cells that may be split over heads are checked (the engine does not split the
// others). Returns the cells checked.
std::size_t check_accepted_sets_are_sound(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary,
    const std::string& alphabet, std::size_t max_prefix) {
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::SpannerEngine spanner(grammar, vocabulary);
  std::size_t checked = 0;
  for (const std::string& prefix : glrmask::testing::strings_up_to(alphabet, max_prefix)) {
    glr::Session session(grammar, &vocabulary);
    if (!session.try_commit_bytes(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    for (const lexer::DwaEntry& entry : spanner.dwa().enter(session.lexer_configuration())) {
      glr::GssHeads heads = session.heads();
      bool alive = true;
      for (const lexer::LabelId label : entry.labels)
        alive = alive && session.recognizer().feed_token(heads, label);
      if (!alive) continue;
      for (const glr::GssNodeRef& head : heads) {
        const mask::SpannerCell& cell = spanner.table().cell(entry.fork, head->state());
        if (heads.size() > 1 && cell.skip_sensitive) continue;
        for (const TokenId id : spanner.pool().to_vector(cell.accepted)) {
          INFO("fork " << entry.fork << ", state " << head->state() << ", token \""
                       << vocabulary.bytes(id) << "\"");
          CHECK(expected.test(id));
        }
        ++checked;
      }
    }
  }
  return checked;
}

void print_stats(const std::string& what, const mask::SpannerEngine& spanner) {
  const mask::SpannerTableStats& s = spanner.table().stats();
  std::cout << what << ": " << s.forks << " forks (" << s.root_nodes << " distinct roots), "
            << s.entry_nodes << " entry nodes after " << s.rounds << " rounds ("
            << s.unentered_nodes << " left out) x " << s.states << " LR states = " << s.cells
            << " cells (" << s.cells_with_accepted << " with accepted tokens, " << s.cells_with_plan
            << " with a plan, " << s.cells_skip_sensitive << " skip-sensitive); "
            << s.distinct_accepted_sets << " distinct accepted sets from "
            << s.distinct_accepted_lists << " lists (" << s.accepted_set_bytes / 1024 << " KiB); "
            << s.plan_nodes << " plan nodes, " << s.plan_edges << " plan edges, " << s.plan_weights
            << " plan weights; table " << s.bytes / 1024 << " KiB; " << s.memo_entries
            << " memo entries, " << s.known_stacks << " known stacks; built in " << s.build_seconds
            << " s (" << s.build_cpu_seconds << " s CPU)\n";
}

void print_real_grammar_stats(const std::string& corpus, glr::ParseOptions options) {
  if (!glrmask::testing::require_data_dir("wfa_spanner_table_test (statistics)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const auto grammar = glr::CompiledGrammar::load_lark(
      data_dir() / "grammars" / "syncode" / (corpus + "_grammar.lark"), options);
  const mask::SpannerEngine spanner(grammar, vocabulary);
  print_stats(corpus + " (Llama-3)", spanner);
  const mask::SpannerTableStats& s = spanner.table().stats();
  // Roots have a cell per state, re-entered nodes one per state that shifts into them.
  CHECK(s.cells >= s.root_nodes * s.states);
  CHECK(s.cells <= s.entry_nodes * s.states);
  CHECK(s.entry_nodes >= s.root_nodes);
  CHECK(s.cells_with_accepted > 0);
  CHECK(s.distinct_accepted_sets <= s.cells_with_accepted);
}

glr::ParseOptions lark_policy(std::vector<std::string> skippable = {}) {
  glr::ParseOptions options;
  options.policy = glr::ConflictPolicy::kLark;
  options.skippable = std::move(skippable);
  return options;
}

}  // namespace

TEST_CASE("spanner table: the cell after an opening bracket of nested lists, by hand") {
  const auto grammar = nested_list();
  const Vocabulary vocabulary = tiny_vocabulary(
      {"[", "]", ",", "1", "12", " ", "1,", "1]", "1]]", "]]", "[1", "1 ", ",1", "[["});
  mask::SpannerEngine spanner(grammar, vocabulary);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  glr::Session top(grammar, &vocabulary);
  top.commit_bytes("[");
  glr::Session nested(grammar, &vocabulary);
  nested.commit_bytes("[[");
  // The same LR state after "[" at any depth, one head, at a token boundary.
  REQUIRE(top.heads().size() == 1);
  REQUIRE(nested.heads().size() == 1);
  REQUIRE(top.heads()[0]->state() == nested.heads()[0]->state());
  const std::vector<lexer::DwaEntry> entries = spanner.dwa().enter(top.lexer_configuration());
  REQUIRE(entries.size() == 1);
  REQUIRE(entries[0].labels.empty());
  const mask::SpannerCell& cell = spanner.table().cell(entries[0].fork, top.heads()[0]->state());

  // Accepted whatever lies below "[": a number (the lexeme may go on, or end before "," or "]"
  // which the stack above "[" shifts after reducing the number to an item), a number and ",",
  // a number and a space, a space, and "[" (the state after "[" shifts "[" and then numbers).
  // "1]" parses too, but what may follow the closing "]" (the end, or "," and "]") is decided by
  // the state below "[": it is context-dependent. "1]]", "]]", "]", "," and ",1" are not in it:
  // "]" and "," cannot follow "[" and "1]]" closes a list that only a deeper stack opened.
  CHECK(tokens_of(vocabulary, spanner.pool(), cell.accepted) ==
        std::vector<std::string>{" ", "1", "1 ", "1,", "12", "[", "[1", "[["});
  CHECK_FALSE(cell.skip_sensitive);
  REQUIRE(cell.plan != mask::SpannerTable::kNoPlan);

  // The plan walks the labels of "1]" and "1]]" (NUM, then "]") on the real stack.
  const mask::SpannerPlanNode& root = spanner.table().plan(cell.plan);
  CHECK_FALSE(root.reenter);
  REQUIRE(spanner.table().plan_edges(root).size() == 1);

  const DenseMask at_top = engine_mask(spanner, top, vocabulary);
  const DenseMask at_depth_two = engine_mask(spanner, nested, vocabulary);
  CHECK(at_top == engine_mask(oracle, top, vocabulary));
  CHECK(at_depth_two == engine_mask(oracle, nested, vocabulary));
  CHECK(at_top.test(id_of(vocabulary, "1]")));
  CHECK(at_depth_two.test(id_of(vocabulary, "1]")));
  CHECK_FALSE(at_top.test(id_of(vocabulary, "1]]")));
  CHECK(at_depth_two.test(id_of(vocabulary, "1]]")));
  CHECK_FALSE(at_depth_two.test(id_of(vocabulary, "]]")));
  CHECK_FALSE(at_top.test(id_of(vocabulary, ",")));
}

TEST_CASE("spanner table: accepted sets hold for every stack with their top state") {
  const Vocabulary lists = glrmask::testing::prefix_vocabulary("[]1, ");
  CHECK(check_accepted_sets_are_sound(nested_list(), lists, "[]1, ", 6) > 50);
  // Fixtures with ties, ε-rules, hidden recursion and skippable terminals.
  const std::vector<std::pair<std::string, std::string>> fixtures = {
      {"ambiguous_sum.lark", "12+ "},         {"fallback_dots.lark", "a. "},
      {"keyword_ties.lark", "ifa= "},         {"ignored_tie.lark", "a# ;"},
      {"epsilon_rules.lark", "xyz "},         {"cyclic.lark", "a "},
      {"hidden_left_recursion.lark", "nxy "}, {"hidden_right_recursion.lark", "ab "}};
  for (const auto& [fixture, alphabet] : fixtures) {
    INFO("fixture " << fixture);
    CHECK(check_accepted_sets_are_sound(glrmask::testing::load_session_fixture(fixture),
                                        glrmask::testing::prefix_vocabulary(alphabet), alphabet,
                                        4) > 5);
  }
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  CHECK(check_accepted_sets_are_sound(
            glrmask::testing::load_session_fixture("skippable_eos.lark", skippable),
            glrmask::testing::prefix_vocabulary("a{}\n; "), "a{}\n; ", 4) > 5);
}

TEST_CASE("spanner table: a skippable terminal makes a cell skip-sensitive unless always shifted") {
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  const auto grammar = glrmask::testing::load_session_fixture("skippable_eos.lark", skippable);
  const Vocabulary vocabulary = glrmask::testing::prefix_vocabulary("a{}\n; ");
  const mask::SpannerEngine spanner(grammar, vocabulary);
  const mask::SpannerTableStats& s = spanner.table().stats();
  CHECK(s.cells_skip_sensitive > 0);
  CHECK(s.cells_skip_sensitive < s.cells);
  // Without skippable terminals no cell is.
  const mask::SpannerEngine plain(glrmask::testing::load_session_fixture("skippable_eos.lark"),
                                  vocabulary);
  CHECK(plain.table().stats().cells_skip_sensitive == 0);
}

TEST_CASE("spanner table: several heads are not split on a skip-sensitive cell") {
  glr::ParseOptions options;
  options.skippable = {"EOS"};
  const auto grammar = glr::CompiledGrammar::load_lark(
      glrmask::testing::fixtures_dir() / "spanner_table" / "skippable_heads.lark", options);
  const Vocabulary vocabulary =
      tiny_vocabulary({"go", " x", "\n", "(", ")", "\n(", "\nx", "()", " y", "x"});
  mask::SpannerEngine spanner(grammar, vocabulary);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  glr::Session session(grammar, &vocabulary);
  session.commit_bytes("go x");
  REQUIRE(session.heads().size() == 2);
  const std::vector<lexer::DwaEntry> entries = spanner.dwa().enter(session.lexer_configuration());
  // "x" may still grow, so the entry that ends it emits NAME early; fed to both heads it leaves a
  // statement head (EOS next) and a call head ("(" next). The call head alone would skip the
  // newline and take "(": its cell accepts "\n(", and says that it relied on the skip.
  bool call_head_accepts = false;
  for (const lexer::DwaEntry& entry : entries) {
    glr::GssHeads heads = session.heads();
    for (const lexer::LabelId label : entry.labels)
      REQUIRE(session.recognizer().feed_token(heads, label));
    for (const glr::GssNodeRef& head : heads) {
      const mask::SpannerCell& cell = spanner.table().cell(entry.fork, head->state());
      if (spanner.pool().contains(cell.accepted, id_of(vocabulary, "\n("))) {
        call_head_accepts = true;
        CHECK(heads.size() == 2);
        CHECK(cell.skip_sensitive);
      }
    }
  }
  CHECK(call_head_accepts);
  // Both heads together shift the newline (the statement head can), so the call head dies.
  const DenseMask mask = engine_mask(spanner, session, vocabulary);
  CHECK(mask == engine_mask(oracle, session, vocabulary));
  CHECK_FALSE(mask.test(id_of(vocabulary, "\n(")));
  CHECK(mask.test(id_of(vocabulary, "\n")));
  CHECK(mask.test(id_of(vocabulary, "(")));
  CHECK(mask.test(id_of(vocabulary, "()")));
}

TEST_CASE("spanner table: statistics, SynCode JSON with Llama-3") {
  print_real_grammar_stats("json", lark_policy());
}

TEST_CASE("spanner table: statistics, SynCode Go and Java with Llama-3", "[.stats]") {
  print_real_grammar_stats("go", lark_policy({"EOS"}));
  print_real_grammar_stats("java", lark_policy());
}
