// Helpers for the glr tests: fixture loading, a deterministic table-driven LR parser, an
// all-stacks (GLR-style) simulation of the table, and an Earley recognizer written straight from
// the grammar as an oracle that shares no code with the LR construction.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "glr/analysis/bnf_text.h"
#include "glr/cfg.h"
#include "glr/lr_grammar.h"
#include "glr/lr_table.h"
#include "tests/support/test_support.h"

namespace glrmask::glr::testing {

inline Cfg load_fixture(const std::string& name) {
  const std::string text =
      glrmask::testing::read_file(glrmask::testing::fixtures_dir() / "glr" / name);
  REQUIRE_FALSE(text.empty());
  return parse_bnf(text, name);
}

inline SymbolId symbol_named(const LrGrammar& grammar, std::string_view name) {
  for (SymbolId symbol = 0; symbol < grammar.num_symbols(); ++symbol) {
    if (grammar.name(symbol) == name) return symbol;
  }
  FAIL("no symbol named " << name);
  return kNoSymbol;
}

// "id = * id" -> the terminals named "id", "=", "*", "id" (quoted literals in the fixtures).
inline std::vector<SymbolId> words(const LrGrammar& grammar, std::string_view text) {
  std::vector<SymbolId> terminals;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    const std::size_t end = std::min(text.find(' ', pos), text.size());
    const SymbolId terminal =
        symbol_named(grammar, "\"" + std::string(text.substr(pos, end - pos)) + "\"");
    REQUIRE(grammar.is_terminal(terminal));
    terminals.push_back(terminal);
    pos = end;
  }
  return terminals;
}

enum class LrOutcome { kAccepted, kRejected, kNondeterministic };

// The textbook LR driver: one stack, one action per step. Input terminals use LrGrammar ids.
inline LrOutcome run_deterministic(const LrTable& table, const LrGrammar& grammar,
                                   std::span<const SymbolId> input) {
  std::vector<StateId> stack{0};
  std::size_t position = 0;
  while (true) {
    const SymbolId lookahead = position < input.size() ? input[position] : grammar.end_of_input();
    const std::span<const Action> actions = table.actions(stack.back(), lookahead);
    if (actions.empty()) return LrOutcome::kRejected;
    if (actions.size() > 1) return LrOutcome::kNondeterministic;
    const Action action = actions.front();
    if (action.is_accept()) return LrOutcome::kAccepted;
    if (action.is_shift()) {
      stack.push_back(action.target());
      ++position;
      continue;
    }
    stack.resize(stack.size() - table.rule_length(action.rule()));
    const StateId target = table.goto_state(stack.back(), table.rule_lhs(action.rule()));
    REQUIRE(target != kNoState);
    stack.push_back(target);
  }
}

using Stack = std::vector<StateId>;

// Every stack reachable from `stacks` by reductions on `lookahead`. Reductions by epsilon rules can
// grow stacks without bound (hidden left recursion), so stacks deeper than max_depth are dropped.
inline std::set<Stack> reduce_all(const LrTable& table, std::set<Stack> stacks, SymbolId lookahead,
                                  std::size_t max_depth) {
  std::vector<Stack> work(stacks.begin(), stacks.end());
  while (!work.empty()) {
    const Stack stack = std::move(work.back());
    work.pop_back();
    for (Action action : table.actions(stack.back(), lookahead)) {
      if (!action.is_reduce()) continue;
      const std::uint32_t length = table.rule_length(action.rule());
      REQUIRE(length < stack.size());
      Stack reduced(stack.begin(), stack.end() - length);
      const StateId target = table.goto_state(reduced.back(), table.rule_lhs(action.rule()));
      REQUIRE(target != kNoState);
      reduced.push_back(target);
      if (reduced.size() <= max_depth && stacks.insert(reduced).second) work.push_back(reduced);
    }
  }
  return stacks;
}

// The stacks a GLR parser holds after reading `input` with `lookahead` next (all reductions on
// the lookahead done, nothing shifted yet).
inline std::set<Stack> stacks_before(const LrTable& table, std::span<const SymbolId> input,
                                     SymbolId lookahead) {
  const std::size_t max_depth = 3 * input.size() + 12;
  std::set<Stack> stacks{Stack{0}};
  for (SymbolId terminal : input) {
    std::set<Stack> shifted;
    for (const Stack& stack : reduce_all(table, std::move(stacks), terminal, max_depth)) {
      for (Action action : table.actions(stack.back(), terminal)) {
        if (!action.is_shift()) continue;
        Stack next = stack;
        next.push_back(action.target());
        shifted.insert(std::move(next));
      }
    }
    stacks = std::move(shifted);
  }
  return reduce_all(table, std::move(stacks), lookahead, max_depth);
}

inline bool glr_accepts(const LrTable& table, const LrGrammar& grammar,
                        std::span<const SymbolId> input) {
  for (const Stack& stack : stacks_before(table, input, grammar.end_of_input())) {
    for (Action action : table.actions(stack.back(), grammar.end_of_input())) {
      if (action.is_accept()) return true;
    }
  }
  return false;
}

// Earley's recognizer on the Cfg itself (Cfg ids), with Aycock and Horspool's fix for nullable
// nonterminals. Knows nothing about LR: `input` holds terminal ids, which the two share.
inline bool earley_accepts(const Cfg& cfg, std::span<const SymbolId> input) {
  std::vector<char> nullable(cfg.num_symbols(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Cfg::Rule& rule : cfg.rules) {
      if (nullable[rule.lhs.value()]) continue;
      bool all = true;
      for (const GrammarSymbolId symbol : rule.rhs) all = all && nullable[symbol.value()];
      if (all) nullable[rule.lhs.value()] = changed = true;
    }
  }
  struct EarleyItem {
    std::size_t rule, dot, origin;
    auto operator<=>(const EarleyItem&) const = default;
  };
  std::vector<std::set<EarleyItem>> charts(input.size() + 1);
  std::vector<std::vector<EarleyItem>> agenda(input.size() + 1);
  auto add = [&](std::size_t at, EarleyItem item) {
    if (charts[at].insert(item).second) agenda[at].push_back(item);
  };
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    if (cfg.rules[r].lhs == cfg.start) add(0, EarleyItem{r, 0, 0});
  }
  for (std::size_t i = 0; i <= input.size(); ++i) {
    while (!agenda[i].empty()) {
      const EarleyItem item = agenda[i].back();
      agenda[i].pop_back();
      const Cfg::Rule& rule = cfg.rules[item.rule];
      if (item.dot == rule.rhs.size()) {
        const std::set<EarleyItem> waiting = charts[item.origin];
        for (const EarleyItem& parent : waiting) {
          const Cfg::Rule& parent_rule = cfg.rules[parent.rule];
          if (parent.dot < parent_rule.rhs.size() && parent_rule.rhs[parent.dot] == rule.lhs) {
            add(i, EarleyItem{parent.rule, parent.dot + 1, parent.origin});
          }
        }
        continue;
      }
      const GrammarSymbolId next = rule.rhs[item.dot];
      if (cfg.is_terminal(next)) {
        if (i < input.size() && input[i] == lr_terminal(next)) {
          add(i + 1, EarleyItem{item.rule, item.dot + 1, item.origin});
        }
        continue;
      }
      for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
        if (cfg.rules[r].lhs == next) add(i, EarleyItem{r, 0, i});
      }
      if (nullable[next.value()]) add(i, EarleyItem{item.rule, item.dot + 1, item.origin});
    }
  }
  for (const EarleyItem& item : charts[input.size()]) {
    const Cfg::Rule& rule = cfg.rules[item.rule];
    if (item.origin == 0 && rule.lhs == cfg.start && item.dot == rule.rhs.size()) return true;
  }
  return false;
}

// Calls visit(string) for every string of terminals 0..num_terminals-1, shortest first, up to the
// longest length whose strings all fit in `budget` calls.
inline void for_each_string(std::uint32_t num_terminals, std::size_t budget,
                            const std::function<void(std::span<const SymbolId>)>& visit) {
  std::size_t max_length = 0;
  for (std::size_t count = 1, total = 1; total + count * num_terminals <= budget;) {
    count *= num_terminals;
    total += count;
    ++max_length;
  }
  std::vector<SymbolId> string;
  std::function<void()> extend = [&] {
    visit(string);
    if (string.size() == max_length) return;
    for (SymbolId terminal = 0; terminal < num_terminals; ++terminal) {
      string.push_back(terminal);
      extend();
      string.pop_back();
    }
  };
  extend();
}

}  // namespace glrmask::glr::testing
