// Counterexamples for conflict cells (glr/analysis/conflict_counterexample.h): the known truth of
// the fixtures (the dangling else and `e: e "+" e | e "*" e` are ambiguous with shortest sentences;
// an LR(2) grammar needs two tokens of lookahead; Dragon book 4.58's cells are LALR merge
// artifacts, as canonical LR(1) says), and, on random small grammars, every verdict against
// brute force: every sentence up to length 5 with two trees is found, the two trees' LR parses
// are followed to the cell where they first part, and
//  - a cell where some pair of trees parts is never called lookahead-only, and is called
//    ambiguous unless the search ran out of budget, with a counterexample no longer than the
//    shortest brute-force one;
//  - every unifying counterexample's sentence has at least two trees by an independent count;
//  - a cell separated by k tokens never has two trees of one sentence parting at it, and the
//    k-token continuations of the brute-force parses taking each action are disjoint.
#include "glr/analysis/conflict_counterexample.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "glr/analysis/conflict_report.h"
#include "glr/analysis/derivation_tree.h"
#include "glr/analysis/forest_parser.h"
#include "glr/compiled_grammar.h"
#include "lib/core/error.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/random_lark_grammar.h"
#include "tests/support/span_derivation_counter.h"

namespace glrmask::glr {
namespace {

std::shared_ptr<const CompiledGrammar> fixture(const std::string& name) {
  return CompiledGrammar::load_lark(testing::fixtures_dir() / "ambiguity" / name);
}

// The verdicts of every conflict cell of a compiled grammar, in report order.
struct Classified {
  ConflictReport report;
  std::vector<ConflictVerdict> verdicts;
};

Classified classify_all(const CompiledGrammar& grammar, const CounterexampleOptions& options = {}) {
  Classified result;
  result.report = report_conflicts(grammar.lalr());
  CounterexampleFinder finder(grammar.lalr());
  for (const Conflict& conflict : result.report.conflicts)
    result.verdicts.push_back(finder.classify(conflict, options));
  return result;
}

std::string names(const LrGrammar& grammar, const std::vector<SymbolId>& sentence) {
  std::string text;
  for (const SymbolId s : sentence) text += (text.empty() ? "" : " ") + grammar.name(s);
  return text;
}

// The moves of the LR parse that builds `tree` (post-order: shift each leaf, reduce each node
// after its children), each with the state it is taken in and its lookahead.
struct Move {
  StateId state;
  SymbolId lookahead;
  Action action;
};

std::vector<Move> moves_of(const LalrAutomaton& automaton, const DerivationTree& tree,
                           const std::vector<SymbolId>& sentence) {
  const LrGrammar& grammar = automaton.grammar();
  const Lr0Automaton& lr0 = automaton.lr0();
  std::vector<Move> moves;
  std::vector<StateId> stack{0};
  std::size_t next = 0;
  std::function<void(const DerivationTree&)> visit = [&](const DerivationTree& node) {
    const SymbolId lookahead = next < sentence.size() ? sentence[next] : grammar.end_of_input();
    if (node.is_leaf()) {
      const StateId target = lr0.transition(stack.back(), node.symbol);
      moves.push_back({stack.back(), lookahead, Action::shift(target)});
      stack.push_back(target);
      ++next;
      return;
    }
    for (const TreeRef& child : node.children) visit(*child);
    const SymbolId la = next < sentence.size() ? sentence[next] : grammar.end_of_input();
    moves.push_back({stack.back(), la, Action::reduce(node.rule)});
    stack.resize(stack.size() - node.children.size());
    stack.push_back(lr0.transition(stack.back(), node.symbol));
  };
  visit(tree);
  return moves;
}

TEST_CASE("dangling else: ambiguous, with the shortest sentence and its two trees") {
  const auto grammar = fixture("dangling_else.lark");
  const Classified all = classify_all(*grammar);
  REQUIRE(all.verdicts.size() == 1);
  const ConflictVerdict& verdict = all.verdicts[0];
  REQUIRE(verdict.kind == ConflictClass::kAmbiguous);
  const LrGrammar& lr = grammar->lalr().grammar();
  // if c then if c then s . else s
  CHECK(names(lr, verdict.first->sentence) == "IF COND THEN IF COND THEN S ELSE S");
  CHECK(verdict.conflict_position == 7);
  CHECK(verdict.first->sentence == verdict.second->sentence);
  CHECK(verdict.trees->str() == "2");
  CHECK_FALSE(same_tree(*verdict.first->tree, *verdict.second->tree));
  CHECK(verdict.first->action.is_shift());
  CHECK(verdict.second->action.is_reduce());
}

TEST_CASE("e: e + e | e * e | NUM: every cell ambiguous on NUM op NUM op NUM") {
  const auto grammar = fixture("expr.lark");
  const Classified all = classify_all(*grammar);
  REQUIRE(all.verdicts.size() == 4);
  for (const ConflictVerdict& verdict : all.verdicts) {
    REQUIRE(verdict.kind == ConflictClass::kAmbiguous);
    CHECK(verdict.first->sentence.size() == 5);  // no 3-terminal text has two trees
    CHECK(verdict.conflict_position == 3);
  }
}

TEST_CASE("an LR(2) grammar's reduce/reduce cell needs two tokens of lookahead") {
  const auto grammar = fixture("lr2.lark");
  const Classified all = classify_all(*grammar);
  REQUIRE(all.verdicts.size() == 1);
  const ConflictVerdict& verdict = all.verdicts[0];
  REQUIRE(verdict.kind == ConflictClass::kNeedsLookahead);
  CHECK(verdict.lookahead == 2);
  const LrGrammar& lr = grammar->lalr().grammar();
  std::set<std::string> sentences{names(lr, verdict.first->sentence),
                                  names(lr, verdict.second->sentence)};
  CHECK(sentences == std::set<std::string>{"C X Y", "C X Z"});
  for (const auto* d : {&*verdict.first, &*verdict.second}) {
    const auto parse = parse_terminals(grammar->lalr().table(), d->sentence);
    REQUIRE(parse);
    CHECK(parse->derivations.str() == "1");
  }
}

TEST_CASE("an LR(3) cell needs three tokens, a trailing separator needs two") {
  const auto lr3 = testing::compile_lark(
      "start: a \"x\" \"y\" \"y\" | b \"x\" \"y\" \"z\"\na: \"c\"\nb: \"c\"\n");
  const Classified three = classify_all(*lr3);
  REQUIRE(three.verdicts.size() == 1);
  CHECK(three.verdicts[0].kind == ConflictClass::kNeedsLookahead);
  CHECK(three.verdicts[0].lookahead == 3);
  // Go's argument lists, `(x, x,)`: after an x, a "," either continues the list or is the
  // optional trailing one, which only the token after it tells.
  const auto trailing =
      testing::compile_lark("start: \"(\" list \",\"? \")\"\nlist: \"x\" (\",\" \"x\")*\n");
  const Classified two = classify_all(*trailing);
  REQUIRE(two.verdicts.size() == 2);  // after the first x, and after a later one
  for (const ConflictVerdict& verdict : two.verdicts) {
    CHECK(verdict.kind == ConflictClass::kNeedsLookahead);
    CHECK(verdict.lookahead == 2);
  }
  // Past the bound the verdict is undecided, and says which bound.
  CounterexampleOptions short_lookahead;
  short_lookahead.max_lookahead = 2;
  const Classified bounded = classify_all(*lr3, short_lookahead);
  CHECK(bounded.verdicts[0].kind == ConflictClass::kNeedsLookahead);
  CHECK(bounded.verdicts[0].product_exhausted);
}

TEST_CASE("Dragon book 4.58: both cells need no more lookahead, as canonical LR(1) says") {
  const auto grammar =
      CompiledGrammar::load_lark(testing::fixtures_dir() / "glr" / "lr1_not_lalr.lark");
  const Classified all = classify_all(*grammar);
  REQUIRE(all.verdicts.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(all.report.conflicts[i].merge == MergeVerdict::kLalrArtifact);
    CHECK(all.verdicts[i].kind == ConflictClass::kNeedsLookahead);
    CHECK(all.verdicts[i].lookahead == 1);
  }
}

TEST_CASE("verdicts on random grammars agree with brute force over every sentence up to 5") {
  std::mt19937 rng(99);
  std::size_t grammars = 0, cells = 0, ambiguous = 0, lookahead = 0, undecided = 0;
  std::size_t ambiguous_sentences = 0;
  while (grammars < 40) {
    const std::string text = testing::random_lark_grammar(rng, 3);
    std::shared_ptr<const CompiledGrammar> grammar;
    try {
      grammar = testing::compile_lark(text);
    } catch (const Error&) {
      continue;
    }
    const LalrAutomaton& automaton = grammar->lalr();
    if (automaton.table().num_conflict_cells() == 0) continue;
    ++grammars;
    INFO(text);
    const LrGrammar& lr = automaton.grammar();
    CounterexampleOptions options;
    options.max_length = 16;
    options.max_configurations = 20000;
    const Classified all = classify_all(*grammar, options);

    // Brute force: the cells where two trees of a sentence part, with the shortest such
    // sentence, and the k-token continuations of each action at each cell.
    std::map<std::pair<StateId, SymbolId>, std::size_t> parting;  // cell -> shortest length
    std::map<std::tuple<StateId, SymbolId, std::uint32_t>, std::set<std::vector<SymbolId>>> after;
    std::vector<SymbolId> alphabet;
    for (SymbolId t = 0; t < grammar->grammar().num_terminals(); ++t) alphabet.push_back(t);
    for (const std::vector<SymbolId>& sentence : testing::all_strings(alphabet, 5)) {
      const auto parse = parse_terminals(automaton.table(), sentence);
      if (!parse) continue;
      const auto trees = enumerate_trees(parse->forest, parse->root, 6);
      std::vector<std::vector<Move>> parses;
      for (const TreeRef& tree : trees) parses.push_back(moves_of(automaton, *tree, sentence));
      for (const std::vector<Move>& moves : parses) {
        std::size_t shifted = 0;
        for (const Move& move : moves) {
          if (automaton.table().actions(move.state, move.lookahead).size() > 1) {
            std::vector<SymbolId> rest(sentence.begin() + static_cast<std::ptrdiff_t>(shifted),
                                       sentence.end());
            rest.push_back(lr.end_of_input());
            after[{move.state, move.lookahead, move.action.bits()}].insert(rest);
          }
          if (move.action.is_shift()) ++shifted;
        }
      }
      if (trees.size() < 2) continue;
      ++ambiguous_sentences;
      for (std::size_t a = 0; a < parses.size(); ++a) {
        for (std::size_t b = a + 1; b < parses.size(); ++b) {
          std::size_t i = 0;
          while (i < parses[a].size() && i < parses[b].size() &&
                 parses[a][i].action == parses[b][i].action)
            ++i;
          REQUIRE(i < parses[a].size());
          const auto cell = std::make_pair(parses[a][i].state, parses[a][i].lookahead);
          auto it = parting.find(cell);
          if (it == parting.end() || it->second > sentence.size()) parting[cell] = sentence.size();
        }
      }
    }

    for (std::size_t c = 0; c < all.verdicts.size(); ++c) {
      ++cells;
      const Conflict& conflict = all.report.conflicts[c];
      const ConflictVerdict& verdict = all.verdicts[c];
      const auto cell = std::make_pair(conflict.state, conflict.lookahead);
      INFO("state " << conflict.state << " on " << lr.name(conflict.lookahead));
      const auto known = parting.find(cell);
      switch (verdict.kind) {
        case ConflictClass::kAmbiguous: {
          ++ambiguous;
          std::vector<std::vector<SymbolId>> tokens;
          for (const SymbolId t : verdict.first->sentence) tokens.push_back({t});
          testing::SpanDerivationCounter reference(grammar->grammar(), tokens);
          const auto count = reference.count_sentence();
          CHECK((count.infinite || count.value >= 2));
          if (known != parting.end()) CHECK(verdict.first->sentence.size() <= known->second);
          break;
        }
        case ConflictClass::kNeedsLookahead: {
          ++lookahead;
          CHECK(known == parting.end());
          if (verdict.lookahead == 0) break;
          // The k-token continuations seen for each pair of the cell's actions are disjoint.
          for (std::size_t i = 0; i < conflict.actions.size(); ++i) {
            for (std::size_t j = i + 1; j < conflict.actions.size(); ++j) {
              auto prefixes = [&](Action action) {
                std::set<std::vector<SymbolId>> result;
                for (const auto& rest :
                     after[{conflict.state, conflict.lookahead, action.bits()}]) {
                  const std::size_t k = std::min<std::size_t>(verdict.lookahead, rest.size());
                  result.insert({rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(k)});
                }
                return result;
              };
              const auto a = prefixes(conflict.actions[i]);
              const auto b = prefixes(conflict.actions[j]);
              for (const auto& p : a) CHECK_FALSE(b.count(p));
            }
          }
          break;
        }
        case ConflictClass::kUndecided:  // within the length or lookahead bound, or the budget
          ++undecided;
          break;
      }
      // Complete within the bound: a parting sentence of at most 5 terminals is found.
      if (known != parting.end() && verdict.kind != ConflictClass::kAmbiguous)
        CHECK(verdict.budget_exhausted);
    }
  }
  INFO(grammars << " grammars, " << cells << " cells: " << ambiguous << " ambiguous, " << lookahead
                << " lookahead, " << undecided << " undecided; " << ambiguous_sentences
                << " ambiguous sentences up to length 5");
  CHECK(cells > 100);
  CHECK(ambiguous > 60);
  CHECK(lookahead > 3);
  CHECK(undecided * 5 < cells);
}

}  // namespace
}  // namespace glrmask::glr
