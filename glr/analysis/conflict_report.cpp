#include "glr/analysis/conflict_report.h"

#include <fmt/format.h>

#include "glr/analysis/canonical_lr1.h"
#include "glr/analysis/example_prefix.h"

namespace glrmask::glr {
namespace {

std::vector<Item> items_shifting(const LalrAutomaton& automaton, StateId state, SymbolId terminal) {
  const LrGrammar& grammar = automaton.grammar();
  std::vector<Item> closure;
  automaton.lr0().closure(grammar, state, closure);
  std::vector<Item> items;
  for (const Item& item : closure) {
    const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
    if (item.dot < rhs.size() && rhs[item.dot] == terminal) items.push_back(item);
  }
  return items;
}

std::optional<std::vector<SymbolId>> find_example(const LalrAutomaton& automaton,
                                                  ExamplePrefixFinder& finder,
                                                  const Conflict& conflict,
                                                  std::uint64_t max_length) {
  const LrGrammar& grammar = automaton.grammar();
  std::vector<PrefixGoal> goals;
  for (Action action : conflict.actions) {
    if (!action.is_reduce()) continue;
    goals.push_back(PrefixGoal{conflict.state,
                               Item{action.rule(), grammar.rhs_length(action.rule())},
                               conflict.lookahead});
  }
  return finder.find(goals, max_length);
}

std::string describe_action(const LrGrammar& grammar, Action action) {
  switch (action.kind()) {
    case ActionKind::kShift:
      return fmt::format("shift to state {}", action.target());
    case ActionKind::kAccept:
      return "accept";
    case ActionKind::kReduce:
      return fmt::format("reduce by rule {} ({})", action.rule(), grammar.rule_text(action.rule()));
  }
  return {};
}

std::string conflict_kind(const Conflict& conflict) {
  if (conflict.shift_reduce() && conflict.reduce_reduce()) return "shift/reduce/reduce";
  return conflict.shift_reduce() ? "shift/reduce" : "reduce/reduce";
}

}  // namespace

ConflictReport report_conflicts(const LalrAutomaton& automaton,
                                const ConflictReportOptions& options) {
  const LrGrammar& grammar = automaton.grammar();
  const LrTable& table = automaton.table(ConflictPolicy::kKeepAll);
  const LrTable& lark = automaton.table(ConflictPolicy::kLark);

  ConflictReport report;
  ConflictStats& stats = report.stats;
  stats.terminals = grammar.num_terminals() - 1;
  stats.nonterminals = grammar.num_nonterminals() - 1;
  stats.rules = grammar.num_rules() - 1;
  stats.states = automaton.lr0().num_states();
  stats.table_bytes = table.size_in_bytes();

  ExamplePrefixFinder finder(grammar, automaton.sets(), automaton.lr0());
  for (StateId state = 0; state < table.num_states(); ++state) {
    for (std::uint32_t cell = table.row_begin(state); cell < table.row_end(state); ++cell) {
      const std::span<const Action> actions = table.cell_actions(cell);
      if (actions.size() < 2) continue;
      Conflict conflict;
      conflict.state = state;
      conflict.lookahead = table.cell_terminal(cell);
      conflict.actions.assign(actions.begin(), actions.end());
      const std::span<const Action> kept = lark.actions(state, conflict.lookahead);
      conflict.lark_actions.assign(kept.begin(), kept.end());
      if (conflict.has_shift()) {
        conflict.shift_items = items_shifting(automaton, state, conflict.lookahead);
      }
      if (options.examples) {
        conflict.example = find_example(automaton, finder, conflict, options.max_example_length);
      }
      ++stats.conflict_cells;
      stats.shift_reduce += conflict.shift_reduce() ? 1 : 0;
      stats.reduce_reduce += conflict.reduce_reduce() ? 1 : 0;
      report.conflicts.push_back(std::move(conflict));
    }
  }

  if (stats.reduce_reduce > 0) {
    const std::optional<CanonicalLr1Summary> canonical = analyze_canonical_lr1(
        grammar, automaton.sets(), automaton.lr0(), options.canonical_state_limit);
    if (canonical) stats.canonical_lr1_states = canonical->num_states;
    for (Conflict& conflict : report.conflicts) {
      if (!conflict.reduce_reduce()) continue;
      if (!canonical) {
        conflict.merge = MergeVerdict::kNotChecked;
      } else if (canonical->has_reduce_reduce(conflict.state, conflict.lookahead)) {
        conflict.merge = MergeVerdict::kCanonical;
      } else {
        conflict.merge = MergeVerdict::kLalrArtifact;
      }
    }
  }
  return report;
}

std::string format_conflict_report(const LalrAutomaton& automaton, const ConflictReport& report) {
  const LrGrammar& grammar = automaton.grammar();
  const ConflictStats& stats = report.stats;
  std::string text = fmt::format(
      "grammar: {} terminals, {} nonterminals, {} rules\n"
      "LALR(1): {} states, table {} bytes\n"
      "conflicts: {} cells ({} shift/reduce, {} reduce/reduce)\n",
      stats.terminals, stats.nonterminals, stats.rules, stats.states, stats.table_bytes,
      stats.conflict_cells, stats.shift_reduce, stats.reduce_reduce);
  if (stats.canonical_lr1_states) {
    text += fmt::format("canonical LR(1): {} states\n", *stats.canonical_lr1_states);
  }

  for (const Conflict& conflict : report.conflicts) {
    text += fmt::format("\nstate {} on {}: {}\n", conflict.state, grammar.name(conflict.lookahead),
                        conflict_kind(conflict));
    for (const Item& item : conflict.shift_items) {
      text += fmt::format("  {:<7} {}\n", conflict.actions.front().is_accept() ? "accept" : "shift",
                          grammar.item_text(item.rule, item.dot));
    }
    for (Action action : conflict.actions) {
      if (!action.is_reduce()) continue;
      const RuleId rule = action.rule();
      text += fmt::format("  reduce  {}   [rule {}, priority {}, {}]\n",
                          grammar.item_text(rule, grammar.rhs_length(rule)), rule,
                          grammar.priority(rule), grammar.origin(rule));
    }
    if (conflict.example) {
      std::string example;
      for (SymbolId terminal : *conflict.example) example += grammar.name(terminal) + " ";
      text += fmt::format("  example {}. {}\n", example, grammar.name(conflict.lookahead));
    } else {
      text += "  example (none found within the length limit)\n";
    }
    switch (conflict.merge) {
      case MergeVerdict::kNotReduceReduce:
        break;
      case MergeVerdict::kNotChecked:
        text += "  canonical LR(1) not checked (too many states)\n";
        break;
      case MergeVerdict::kLalrArtifact:
        text += "  LALR merge artifact: canonical LR(1) has no reduce/reduce conflict here\n";
        break;
      case MergeVerdict::kCanonical:
        text += "  also a reduce/reduce conflict in canonical LR(1)\n";
        break;
    }
    std::string kept;
    for (Action action : conflict.lark_actions) {
      kept += (kept.empty() ? "" : "; ") + describe_action(grammar, action);
    }
    text += fmt::format("  lark    {}{}\n", kept,
                        conflict.lark_actions.size() > 1 ? " (still a fork)" : "");
  }
  return text;
}

}  // namespace glrmask::glr
