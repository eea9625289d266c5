// LALR(1) construction on textbook grammars whose automata are known from the literature (state
// counts and conflicts from the Dragon book), checked end to end by parsing with the tables.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "glr/analysis/canonical_lr1.h"
#include "glr/lalr_automaton.h"
#include "tests/support/glr_test_support.h"

namespace glrmask::glr {
namespace {

using testing::load_fixture;
using testing::symbol_named;
using testing::words;
using S = GrammarSymbolId;

struct ConflictCounts {
  std::uint32_t shift_reduce = 0;
  std::uint32_t reduce_reduce = 0;
};

ConflictCounts count_conflicts(const LrTable& table) {
  ConflictCounts counts;
  for (std::uint32_t cell = 0; cell < table.num_cells(); ++cell) {
    const std::span<const Action> actions = table.cell_actions(cell);
    const auto reductions = std::count_if(actions.begin(), actions.end(),
                                          [](Action action) { return action.is_reduce(); });
    const bool shifts = reductions < static_cast<std::ptrdiff_t>(actions.size());
    counts.shift_reduce += shifts && reductions > 0 ? 1 : 0;
    counts.reduce_reduce += reductions > 1 ? 1 : 0;
  }
  return counts;
}

// The state reached from the start state by reading `symbols` (LR(0) transitions).
StateId walk(const LalrAutomaton& automaton, std::initializer_list<std::string_view> symbols) {
  StateId state = Lr0Automaton::kStartState;
  for (std::string_view name : symbols) {
    state = automaton.lr0().transition(state, symbol_named(automaton.grammar(), name));
    REQUIRE(state != kNoState);
  }
  return state;
}

std::set<SymbolId> lookahead_of(const LalrAutomaton& automaton, StateId state, RuleId rule) {
  for (const Reduction& reduction : automaton.lookaheads().reductions(state)) {
    if (reduction.rule != rule) continue;
    std::set<SymbolId> terminals;
    for (std::size_t t = reduction.lookahead.find_first(); t != TerminalSet::npos;
         t = reduction.lookahead.find_next(t)) {
      terminals.insert(static_cast<SymbolId>(t));
    }
    return terminals;
  }
  FAIL("state " << state << " does not reduce by rule " << rule);
  return {};
}

RuleId rule_with_text(const LrGrammar& grammar, std::string_view text) {
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    if (grammar.rule_text(rule) == text) return rule;
  }
  FAIL("no rule " << text);
  return 0;
}

TEST_CASE("LALR(1) but not SLR(1): the Dragon book's L = R grammar has 10 states, no conflict") {
  const LalrAutomaton automaton(load_fixture("dragon_lalr.lark"));
  const LrGrammar& grammar = automaton.grammar();
  CHECK(automaton.lr0().num_states() == 10);
  CHECK(automaton.table().num_conflict_cells() == 0);

  // SLR(1) fails on this grammar because FOLLOW(r) holds "=", so in the state reached on l it
  // would reduce r -> l on "=" as well as shift "=". LALR(1) reduces there on $END only.
  const StateId after_l = walk(automaton, {"l"});
  const RuleId r_from_l = rule_with_text(grammar, "r -> l");
  CHECK(lookahead_of(automaton, after_l, r_from_l) == std::set<SymbolId>{grammar.end_of_input()});
  CHECK(automaton.table().actions(after_l, symbol_named(grammar, "\"=\"")).size() == 1);
  // After "*" l the reduction has both "=" and $END: LALR merges the canonical states reached
  // after "*" l and after l "=" l (example 4.64).
  const StateId after_star_l = walk(automaton, {"\"*\"", "l"});
  CHECK(lookahead_of(automaton, after_star_l, r_from_l) ==
        std::set<SymbolId>{symbol_named(grammar, "\"=\""), grammar.end_of_input()});

  const auto canonical = analyze_canonical_lr1(grammar, automaton.sets(), automaton.lr0(), 1000);
  REQUIRE(canonical.has_value());
  CHECK(canonical->num_states == 14);
  CHECK(canonical->reduce_reduce_cells.empty());
}

TEST_CASE("LR(1) but not LALR(1): merging the states on 'c' makes one reduce/reduce state") {
  const LalrAutomaton automaton(load_fixture("lr1_not_lalr.lark"));
  const LrGrammar& grammar = automaton.grammar();
  const LrTable& table = automaton.table();
  // 0, accept, a, b, c (shared), aA, aB, bB, bA and the four states after the final terminal.
  CHECK(automaton.lr0().num_states() == 13);
  const StateId after_c = walk(automaton, {"\"a\"", "\"c\""});
  CHECK(walk(automaton, {"\"b\"", "\"c\""}) == after_c);
  const ConflictCounts counts = count_conflicts(table);
  CHECK(counts.shift_reduce == 0);
  CHECK(counts.reduce_reduce == 2);
  for (std::string_view lookahead : {"\"d\"", "\"e\""}) {
    const std::span<const Action> actions =
        table.actions(after_c, symbol_named(grammar, lookahead));
    REQUIRE(actions.size() == 2);
    CHECK(actions[0] == Action::reduce(rule_with_text(grammar, "a -> \"c\"")));
    CHECK(actions[1] == Action::reduce(rule_with_text(grammar, "b -> \"c\"")));
  }

  // Canonical LR(1) keeps the two "c" states apart (one more state) and has no conflict.
  const auto canonical = analyze_canonical_lr1(grammar, automaton.sets(), automaton.lr0(), 1000);
  REQUIRE(canonical.has_value());
  CHECK(canonical->num_states == 14);
  CHECK(canonical->reduce_reduce_cells.empty());
  CHECK_FALSE(analyze_canonical_lr1(grammar, automaton.sets(), automaton.lr0(), 13).has_value());
}

TEST_CASE("Dangling else: exactly one shift/reduce conflict, which Lark resolves as shift") {
  const LalrAutomaton automaton(load_fixture("dangling_else.lark"));
  const LrGrammar& grammar = automaton.grammar();
  CHECK(automaton.lr0().num_states() == 7);
  const ConflictCounts counts = count_conflicts(automaton.table());
  CHECK(counts.shift_reduce == 1);
  CHECK(counts.reduce_reduce == 0);

  const StateId conflict_state = walk(automaton, {"\"i\"", "start"});
  const SymbolId else_terminal = symbol_named(grammar, "\"e\"");
  const std::span<const Action> all = automaton.table().actions(conflict_state, else_terminal);
  REQUIRE(all.size() == 2);
  CHECK(all[0].is_shift());
  CHECK(all[1] == Action::reduce(rule_with_text(grammar, "start -> \"i\" start")));
  const std::span<const Action> lark =
      automaton.table(ConflictPolicy::kLark).actions(conflict_state, else_terminal);
  REQUIRE(lark.size() == 1);
  CHECK(lark[0] == all[0]);
  CHECK(automaton.table(ConflictPolicy::kLark).num_conflict_cells() == 0);

  // With shift preferred, "else" binds to the nearest "if": the deterministic parser accepts.
  const LrTable& resolved = automaton.table(ConflictPolicy::kLark);
  CHECK(testing::run_deterministic(resolved, grammar, words(grammar, "i i a e a")) ==
        testing::LrOutcome::kAccepted);
  CHECK(testing::run_deterministic(automaton.table(), grammar, words(grammar, "i i a e a")) ==
        testing::LrOutcome::kNondeterministic);
}

TEST_CASE("Expression grammars: precedence in the grammar is conflict-free, without it 4 S/R") {
  const LalrAutomaton stratified(load_fixture("expr_stratified.lark"));
  const LrGrammar& grammar = stratified.grammar();
  CHECK(stratified.lr0().num_states() == 12);
  CHECK(stratified.table().num_conflict_cells() == 0);
  // After start "+" t: shift "*" (t binds tighter), reduce start -> start "+" t on FOLLOW(start).
  const StateId state = walk(stratified, {"start", "\"+\"", "t"});
  CHECK(stratified.table().actions(state, symbol_named(grammar, "\"*\""))[0].is_shift());
  const RuleId add = rule_with_text(grammar, "start -> start \"+\" t");
  CHECK(lookahead_of(stratified, state, add) == std::set<SymbolId>{symbol_named(grammar, "\"+\""),
                                                                   symbol_named(grammar, "\")\""),
                                                                   grammar.end_of_input()});

  const LalrAutomaton ambiguous(load_fixture("expr_ambiguous.lark"));
  CHECK(ambiguous.lr0().num_states() == 10);
  const ConflictCounts counts = count_conflicts(ambiguous.table());
  CHECK(counts.shift_reduce == 4);
  CHECK(counts.reduce_reduce == 0);
  const LrGrammar& g = ambiguous.grammar();
  for (std::string_view op : {"\"+\"", "\"*\""}) {
    const StateId after = walk(ambiguous, {"start", op, "start"});
    for (std::string_view next : {"\"+\"", "\"*\""}) {
      CHECK(ambiguous.table().actions(after, symbol_named(g, next)).size() == 2);
    }
    CHECK(ambiguous.table().actions(after, symbol_named(g, "\")\"")).size() == 1);
  }
}

TEST_CASE("Dragon book grammar 4.55: 7 LALR(1) states from 10 canonical LR(1) states") {
  const LalrAutomaton automaton(load_fixture("tiny_cc.lark"));
  CHECK(automaton.lr0().num_states() == 7);
  CHECK(automaton.table().num_conflict_cells() == 0);
  const auto canonical =
      analyze_canonical_lr1(automaton.grammar(), automaton.sets(), automaton.lr0(), 1000);
  REQUIRE(canonical.has_value());
  CHECK(canonical->num_states == 10);
}

TEST_CASE("Epsilon rules: nullable symbols, FIRST sets and lookaheads see through them") {
  const LalrAutomaton automaton(load_fixture("epsilon_rules.lark"));
  const LrGrammar& grammar = automaton.grammar();
  const GrammarSets& sets = automaton.sets();
  const SymbolId a = symbol_named(grammar, "a");
  const SymbolId b = symbol_named(grammar, "b");
  const SymbolId start = symbol_named(grammar, "start");
  CHECK(sets.nullable(a));
  CHECK(sets.nullable(b));
  CHECK_FALSE(sets.nullable(start));
  TerminalSet expected(grammar.num_terminals());
  for (std::string_view t : {"\"a\"", "\"b\"", "\"c\"", "\"d\"", "\"f\""}) {
    expected.set(symbol_named(grammar, t));
  }
  CHECK(sets.first(start) == expected);
  CHECK(sets.shortest_yield_length(start) == 1);  // "c"
  CHECK(sets.shortest_yield_length(a) == 0);
  CHECK(automaton.table().num_conflict_cells() == 0);

  // In the start state a -> (empty) is reduced on what can follow a: FIRST(b "c") = {"b", "c"}.
  const RuleId a_empty = rule_with_text(grammar, "a ->");
  CHECK(lookahead_of(automaton, Lr0Automaton::kStartState, a_empty) ==
        std::set<SymbolId>{symbol_named(grammar, "\"b\""), symbol_named(grammar, "\"c\"")});
  // After "d" the same rule is reduced on "e" only.
  CHECK(lookahead_of(automaton, walk(automaton, {"\"d\""}), a_empty) ==
        std::set<SymbolId>{symbol_named(grammar, "\"e\"")});
  // y -> "q" is followed by FIRST(b) = {"b"} and, as b is nullable, by what follows x: "g".
  CHECK(lookahead_of(automaton, walk(automaton, {"\"f\"", "\"p\"", "\"q\""}),
                     rule_with_text(grammar, "y -> \"q\"")) ==
        std::set<SymbolId>{symbol_named(grammar, "\"b\""), symbol_named(grammar, "\"g\"")});
}

TEST_CASE("Hidden left recursion: both forks are kept and the GLR table accepts b a^n") {
  const LalrAutomaton automaton(load_fixture("hidden_left_recursion.lark"));
  const LrGrammar& grammar = automaton.grammar();
  const ConflictCounts counts = count_conflicts(automaton.table());
  CHECK(counts.shift_reduce == 2);  // on "b" in the start state and after eps
  CHECK(counts.reduce_reduce == 0);
  const SymbolId b = symbol_named(grammar, "\"b\"");
  for (StateId state : {Lr0Automaton::kStartState, walk(automaton, {"eps"})}) {
    const std::span<const Action> actions = automaton.table().actions(state, b);
    REQUIRE(actions.size() == 2);
    CHECK(actions[0].is_shift());
    CHECK(actions[1] == Action::reduce(rule_with_text(grammar, "eps ->")));
  }
  for (std::string_view sentence : {"b", "b a", "b a a", "b a a a"}) {
    CHECK(testing::glr_accepts(automaton.table(), grammar, words(grammar, sentence)));
  }
  for (std::string_view sentence : {"a", "b b", "a b", "b a b"}) {
    CHECK_FALSE(testing::glr_accepts(automaton.table(), grammar, words(grammar, sentence)));
  }
}

TEST_CASE("Rule priorities decide reduce/reduce under the lark policy, and ties stay a fork") {
  const LalrAutomaton automaton(load_fixture("rule_priorities.lark"));
  const LrGrammar& grammar = automaton.grammar();
  const SymbolId end = grammar.end_of_input();

  const StateId after_n = walk(automaton, {"\"n\""});
  CHECK(automaton.table().actions(after_n, end).size() == 2);
  const std::span<const Action> chosen =
      automaton.table(ConflictPolicy::kLark).actions(after_n, end);
  REQUIRE(chosen.size() == 1);
  CHECK(chosen[0] == Action::reduce(rule_with_text(grammar, "x -> \"n\"")));

  const StateId after_m_o = walk(automaton, {"\"m\"", "\"o\""});
  CHECK(automaton.table(ConflictPolicy::kLark).actions(after_m_o, end).size() == 2);
  CHECK(automaton.table(ConflictPolicy::kLark).num_conflict_cells() == 1);
}

TEST_CASE("Predecessors: exactly the states with a transition into the state") {
  for (const char* fixture : {"dragon_lalr.lark", "dangling_else.lark", "epsilon_rules.lark",
                              "hidden_left_recursion.lark", "expr_stratified.lark"}) {
    INFO(fixture);
    const LalrAutomaton automaton(load_fixture(fixture));
    const Lr0Automaton& lr0 = automaton.lr0();
    CHECK(lr0.accessing_symbol(Lr0Automaton::kStartState) == kNoSymbol);
    CHECK(lr0.predecessors(Lr0Automaton::kStartState).empty());
    for (StateId target = 1; target < lr0.num_states(); ++target) {
      std::vector<StateId> expected;
      for (StateId source = 0; source < lr0.num_states(); ++source) {
        for (const Transition& t : lr0.transitions(source)) {
          if (t.target != target) continue;
          CHECK(t.symbol == lr0.accessing_symbol(target));
          expected.push_back(source);
        }
      }
      const std::span<const StateId> actual = lr0.predecessors(target);
      CHECK(std::vector<StateId>(actual.begin(), actual.end()) == expected);
      for (const Item& item : lr0.kernel(target)) {
        REQUIRE(item.dot > 0);
        CHECK(automaton.grammar().rhs(item.rule)[item.dot - 1] == lr0.accessing_symbol(target));
      }
    }
  }
  // In the dangling-else automaton the state after "i" is entered from the start state, from
  // itself (nested "i") and from the state after "i" start "e".
  const LalrAutomaton dangling(load_fixture("dangling_else.lark"));
  const StateId after_i = walk(dangling, {"\"i\""});
  const std::span<const StateId> below = dangling.lr0().predecessors(after_i);
  CHECK(std::set<StateId>(below.begin(), below.end()) ==
        std::set<StateId>{Lr0Automaton::kStartState, after_i,
                          walk(dangling, {"\"i\"", "start", "\"e\""})});
}

TEST_CASE("Conflict-free tables parse exactly the grammar's language (Earley as the oracle)") {
  for (const char* fixture :
       {"dragon_lalr.lark", "expr_stratified.lark", "tiny_cc.lark", "epsilon_rules.lark"}) {
    INFO(fixture);
    const Cfg cfg = load_fixture(fixture);
    const LalrAutomaton automaton(cfg);
    REQUIRE(automaton.table().num_conflict_cells() == 0);
    int accepted = 0;
    testing::for_each_string(cfg.num_terminals, 20000, [&](std::span<const SymbolId> input) {
      const bool expected = testing::earley_accepts(cfg, input);
      accepted += expected ? 1 : 0;
      const testing::LrOutcome outcome =
          testing::run_deterministic(automaton.table(), automaton.grammar(), input);
      CHECK(outcome == (expected ? testing::LrOutcome::kAccepted : testing::LrOutcome::kRejected));
    });
    CHECK(accepted > 2);  // the enumeration reached real sentences
  }
}

TEST_CASE("Tables with every conflict kept lose no sentence (GLR simulation vs Earley)") {
  for (const char* fixture : {"dangling_else.lark", "expr_ambiguous.lark", "lr1_not_lalr.lark",
                              "hidden_left_recursion.lark", "rule_priorities.lark"}) {
    INFO(fixture);
    const Cfg cfg = load_fixture(fixture);
    const LalrAutomaton automaton(cfg);
    int accepted = 0;
    testing::for_each_string(cfg.num_terminals, 5000, [&](std::span<const SymbolId> input) {
      const bool expected = testing::earley_accepts(cfg, input);
      accepted += expected ? 1 : 0;
      CHECK(testing::glr_accepts(automaton.table(), automaton.grammar(), input) == expected);
    });
    CHECK(accepted >= 2);  // the enumeration reached real sentences
  }
}

TEST_CASE("Malformed grammars are rejected with the rule named") {
  Cfg cfg;
  cfg.symbol_names = {"x", "s"};
  cfg.num_terminals = 1;
  cfg.start = S{1};
  cfg.rules = {{S{1}, {S{0}, S{7}}, 0, "g.lark:3:1"}};
  REQUIRE_THROWS_WITH(LalrAutomaton(cfg),
                      Catch::Contains("rule 0 (g.lark:3:1)") && Catch::Contains("symbol 7"));
  cfg.rules = {{S{0}, {S{0}}, 0, "g.lark:4:1"}};
  REQUIRE_THROWS_WITH(LalrAutomaton(cfg), Catch::Contains("left-hand side 'x' is a terminal"));
  cfg.rules = {{S{1}, {S{0}}, 0, ""}};
  cfg.start = S{0};
  REQUIRE_THROWS_WITH(LalrAutomaton(cfg), Catch::Contains("start symbol 0 is not a nonterminal"));
  cfg.symbol_names = {"x", "s", "t"};
  cfg.start = S{1};
  cfg.rules = {{S{1}, {S{2}}, 0, "g.lark:5:1"}};
  REQUIRE_THROWS_WITH(LalrAutomaton(cfg),
                      Catch::Contains("nonterminal 't' is used but has no rule"));
}

TEST_CASE("Unproductive symbols: the automaton is built and shortest yields say so") {
  // s -> "x" | loop; loop -> loop "y": loop derives no terminal string.
  Cfg cfg;
  cfg.symbol_names = {"\"x\"", "\"y\"", "s", "loop"};
  cfg.num_terminals = 2;
  cfg.start = S{2};
  cfg.rules = {{S{2}, {S{0}}, 0, ""}, {S{2}, {S{3}}, 0, ""}, {S{3}, {S{3}, S{1}}, 0, ""}};
  const LalrAutomaton automaton(cfg);
  const LrGrammar& grammar = automaton.grammar();
  CHECK(automaton.sets().shortest_yield_length(symbol_named(grammar, "loop")) ==
        GrammarSets::kUnproductive);
  CHECK(automaton.sets().shortest_yield_length(symbol_named(grammar, "s")) == 1);
  CHECK(testing::run_deterministic(automaton.table(), grammar, words(grammar, "x")) ==
        testing::LrOutcome::kAccepted);
}

}  // namespace
}  // namespace glrmask::glr
