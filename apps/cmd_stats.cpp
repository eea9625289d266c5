// `glrmask stats`: the size of everything built from a grammar and how long each part took. The
// figures say whether a grammar is cheap enough for the mask engines before anyone compiles it
// against a vocabulary.
#include <fmt/format.h>

#include <chrono>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "glr/analysis/conflict_report.h"
#include "glr/compiled_grammar.h"
#include "lexer/regex/fallback_analysis.h"
#include "lib/lark/lark_loader.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kStatsUsage =
    "glrmask stats GRAMMAR [--start S] [--policy glr|lark] [--skippable T,...]";

// Runs `build`; stores its wall time in milliseconds.
template <typename Build>
auto timed(double& milliseconds, Build&& build) {
  const auto begin = std::chrono::steady_clock::now();
  auto result = std::forward<Build>(build)();
  milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  return result;
}

}  // namespace

int run_stats(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options = take_grammar_options(rest);
  const GrammarSource source = take_grammar_source(rest);
  Args args(rest, {}, {});
  args.expect_positional(source.needs_path() ? 1 : 0, source.needs_path() ? 1 : 0, kStatsUsage);
  const std::string path = source.needs_path() ? args.positional()[0] : "";

  // The figures are those of the object every parser and mask engine uses, so the grammar goes
  // through CompiledGrammar; only the loading is timed apart from the compilation.
  double load_ms = 0, compile_ms = 0, report_ms = 0;
  GrammarModel loaded =
      timed(load_ms, [&] { return load_grammar(source, path, options.start, options.postlex); });
  const auto compiled =
      timed(compile_ms, [&] { return glr::CompiledGrammar::compile(std::move(loaded), options); });
  glr::ConflictReportOptions report_options;
  report_options.examples = false;
  const glr::ConflictReport report =
      timed(report_ms, [&] { return glr::report_conflicts(compiled->lalr(), report_options); });

  const GrammarModel& grammar = compiled->grammar();
  const GrammarStats g = grammar.stats();
  const glr::ConflictStats& c = report.stats;
  const glr::LrTable& table = compiled->table();
  const lexer::LexerDfa& dfa = compiled->dfa();
  const lexer::LexerDfaStats& d = dfa.stats();
  std::vector<lexer::LabelId> tie_labels;
  for (lexer::LabelId label = 1; label < dfa.num_labels(); ++label)
    if (dfa.label_terminals(label).size() > 1) tie_labels.push_back(label);
  const auto fallbacks = lexer::find_unbounded_fallbacks(dfa);

  fmt::print("grammar           {}\n", grammar_name(source, path));
  fmt::print("start             {}\n", grammar.name(grammar.start()));
  fmt::print("terminals         {} ({} ignored)\n", g.terminals, g.ignored_terminals);
  std::string skippable;
  for (const glr::SymbolId terminal : compiled->skippable_terminals())
    skippable += fmt::format("{}{}", skippable.empty() ? "" : " ",
                             grammar.name(glr::grammar_terminal(terminal)));
  fmt::print("skippable         {}\n", skippable.empty() ? "none" : skippable);
  fmt::print("nonterminals      {}\n", g.nonterminals);
  fmt::print("rules             {} ({} right-hand-side symbols)\n", g.rules, g.rhs_symbols);
  fmt::print("LR states         {} (LALR(1))\n", c.states);
  if (c.canonical_lr1_states) fmt::print("canonical LR(1)   {} states\n", *c.canonical_lr1_states);
  fmt::print("conflict cells    {} ({} shift/reduce, {} reduce/reduce)\n", c.conflict_cells,
             c.shift_reduce, c.reduce_reduce);
  fmt::print("policy            {}: {} cells fork\n", policy_name(options.policy),
             table.num_conflict_cells());
  fmt::print("table bytes       {}\n", table.size_in_bytes());
  fmt::print(
      "lexer DFA         {} states ({} before minimization, {} NFA states), {} byte classes\n",
      d.states, d.subset_states, d.nfa_states, d.byte_classes);
  fmt::print("accept labels     {} ({} ties)\n", dfa.num_labels() - 1, tie_labels.size());
  for (lexer::LabelId label : tie_labels) fmt::print("  tie {}\n", dfa.describe_label(label));
  fmt::print("fall-back         {} unbounded\n", fallbacks.size());
  for (const auto& fallback : fallbacks) fmt::print("  {}\n", lexer::describe(dfa, fallback));
  fmt::print("never lexed       {}", compiled->unrealizable().describe(grammar));
  fmt::print("build ms          load {:.2f}, compile {:.2f} (lexer DFA {:.2f}), conflicts {:.2f}\n",
             load_ms, compile_ms, d.build_seconds * 1000, report_ms);
  return 0;
}

}  // namespace glrmask::app
