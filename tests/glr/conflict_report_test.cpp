// The conflict report: kinds, competing items, shortest example prefixes (hand-derived where the
// grammar is small, and replayed on the table for every conflict), LALR merge verdicts, stats.
#include "glr/analysis/conflict_report.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "glr/lalr_automaton.h"
#include "tests/support/glr_test_support.h"

namespace glrmask::glr {
namespace {

using testing::load_fixture;
using testing::symbol_named;
using testing::words;

const char* const kConflictFixtures[] = {"dangling_else.lark", "expr_ambiguous.lark",
                                         "lr1_not_lalr.lark", "hidden_left_recursion.lark",
                                         "rule_priorities.lark"};

TEST_CASE("Dangling else: one shift/reduce with its items, a 3-terminal example, shift for Lark") {
  const LalrAutomaton automaton(load_fixture("dangling_else.lark"));
  const LrGrammar& grammar = automaton.grammar();
  const ConflictReport report = report_conflicts(automaton);
  CHECK(report.stats.terminals == 3);
  CHECK(report.stats.nonterminals == 1);
  CHECK(report.stats.rules == 3);
  CHECK(report.stats.states == 7);
  CHECK(report.stats.shift_reduce == 1);
  CHECK(report.stats.reduce_reduce == 0);
  CHECK(report.stats.table_bytes == automaton.table().size_in_bytes());
  CHECK_FALSE(report.stats.canonical_lr1_states.has_value());  // no reduce/reduce: not needed

  REQUIRE(report.conflicts.size() == 1);
  const Conflict& conflict = report.conflicts[0];
  CHECK(conflict.lookahead == symbol_named(grammar, "\"e\""));
  CHECK(conflict.shift_reduce());
  CHECK_FALSE(conflict.reduce_reduce());
  CHECK(conflict.merge == MergeVerdict::kNotReduceReduce);
  REQUIRE(conflict.shift_items.size() == 1);
  CHECK(grammar.item_text(conflict.shift_items[0].rule, conflict.shift_items[0].dot) ==
        "start -> \"i\" start . \"e\" start");
  REQUIRE(conflict.lark_actions.size() == 1);
  CHECK(conflict.lark_actions[0].is_shift());
  // Reducing the inner "i" start on "e" needs an outer "i" waiting for its "e": "i i a" is the
  // shortest such prefix ("i a" followed by "e" cannot reduce, the outer level expects $END).
  REQUIRE(conflict.example.has_value());
  CHECK(*conflict.example == words(grammar, "i i a"));

  const std::string text = format_conflict_report(automaton, report);
  CHECK_THAT(text, Catch::Contains("conflicts: 1 cells (1 shift/reduce, 0 reduce/reduce)"));
  CHECK_THAT(text, Catch::Contains("on \"e\": shift/reduce"));
  CHECK_THAT(text, Catch::Contains("shift   start -> \"i\" start . \"e\" start"));
  CHECK_THAT(text, Catch::Contains("reduce  start -> \"i\" start .   [rule 1, priority 0, "
                                   "dangling_else.lark:3:30]"));
  CHECK_THAT(text, Catch::Contains("example \"i\" \"i\" \"a\" . \"e\""));
  CHECK_THAT(text, Catch::Contains("lark    shift to state"));
}

TEST_CASE("Ambiguous expressions: the example is the shortest operand-operator-operand") {
  const LalrAutomaton automaton(load_fixture("expr_ambiguous.lark"));
  const ConflictReport report = report_conflicts(automaton);
  REQUIRE(report.conflicts.size() == 4);
  for (const Conflict& conflict : report.conflicts) {
    REQUIRE(conflict.example.has_value());
    CHECK(conflict.example->size() == 3);  // "id" op "id"
  }
}

TEST_CASE("LR(1)-but-not-LALR(1): both reduce/reduce cells are LALR merge artifacts") {
  const LalrAutomaton automaton(load_fixture("lr1_not_lalr.lark"));
  const ConflictReport report = report_conflicts(automaton);
  CHECK(report.stats.reduce_reduce == 2);
  REQUIRE(report.stats.canonical_lr1_states.has_value());
  CHECK(*report.stats.canonical_lr1_states == 14);
  REQUIRE(report.conflicts.size() == 2);
  for (const Conflict& conflict : report.conflicts) {
    CHECK(conflict.merge == MergeVerdict::kLalrArtifact);
    CHECK(conflict.num_reductions() == 2);
    CHECK(conflict.lark_actions.size() == 2);  // equal priorities: Lark itself would fail
    REQUIRE(conflict.example.has_value());
    CHECK(conflict.example->size() == 2);  // "a" "c" or "b" "c"
  }
  CHECK_THAT(format_conflict_report(automaton, report),
             Catch::Contains("LALR merge artifact: canonical LR(1) has no reduce/reduce conflict"));

  ConflictReportOptions small;
  small.canonical_state_limit = 5;
  for (const Conflict& conflict : report_conflicts(automaton, small).conflicts) {
    CHECK(conflict.merge == MergeVerdict::kNotChecked);
  }
}

TEST_CASE("A reduce/reduce conflict of the grammar itself is reported as canonical") {
  const LalrAutomaton automaton(load_fixture("rule_priorities.lark"));
  const ConflictReport report = report_conflicts(automaton);
  REQUIRE(report.conflicts.size() == 2);
  for (const Conflict& conflict : report.conflicts) {
    CHECK(conflict.merge == MergeVerdict::kCanonical);
    CHECK(conflict.lookahead == automaton.grammar().end_of_input());
  }
  // x.2 beats y after "n"; y2 and z tie after "m" "o".
  CHECK(report.conflicts[0].lark_actions.size() + report.conflicts[1].lark_actions.size() == 3);
  CHECK_THAT(format_conflict_report(automaton, report),
             Catch::Contains("also a reduce/reduce conflict in canonical LR(1)"));
}

TEST_CASE("Accept against reduce counts as shift/reduce and Lark accepts") {
  // s -> s | "x": after s, $END can accept or reduce s -> s.
  Cfg cfg;
  cfg.symbol_names = {"\"x\"", "s"};
  cfg.num_terminals = 1;
  cfg.start = GrammarSymbolId{1};
  cfg.rules = {{GrammarSymbolId{1}, {GrammarSymbolId{1}}, 0, ""},
               {GrammarSymbolId{1}, {GrammarSymbolId{0}}, 0, ""}};
  const LalrAutomaton automaton(cfg);
  const ConflictReport report = report_conflicts(automaton);
  REQUIRE(report.conflicts.size() == 1);
  const Conflict& conflict = report.conflicts[0];
  CHECK(conflict.actions.front().is_accept());
  CHECK(conflict.shift_reduce());
  REQUIRE(conflict.lark_actions.size() == 1);
  CHECK(conflict.lark_actions[0].is_accept());
  REQUIRE(conflict.example.has_value());
  CHECK(conflict.example->size() == 1);
  CHECK_THAT(format_conflict_report(automaton, report),
             Catch::Contains("accept  $accept -> s . $END"));
}

TEST_CASE("Every example prefix, followed by its lookahead, reaches the conflict state") {
  for (const char* fixture : kConflictFixtures) {
    INFO(fixture);
    const LalrAutomaton automaton(load_fixture(fixture));
    const LrTable& table = automaton.table();
    const ConflictReport report = report_conflicts(automaton);
    REQUIRE_FALSE(report.conflicts.empty());
    for (const Conflict& conflict : report.conflicts) {
      INFO("state " << conflict.state << " lookahead " << conflict.lookahead);
      REQUIRE(conflict.example.has_value());
      const std::set<testing::Stack> stacks =
          testing::stacks_before(table, *conflict.example, conflict.lookahead);
      const bool reached = std::any_of(stacks.begin(), stacks.end(), [&](const testing::Stack& s) {
        return s.back() == conflict.state;
      });
      CHECK(reached);
    }
  }
}

TEST_CASE("Example search respects its length limit") {
  const LalrAutomaton automaton(load_fixture("dangling_else.lark"));
  ConflictReportOptions options;
  options.max_example_length = 2;  // the shortest example has 3 terminals
  const ConflictReport report = report_conflicts(automaton, options);
  REQUIRE(report.conflicts.size() == 1);
  CHECK_FALSE(report.conflicts[0].example.has_value());
  CHECK_THAT(format_conflict_report(automaton, report), Catch::Contains("(none found"));
}

}  // namespace
}  // namespace glrmask::glr
