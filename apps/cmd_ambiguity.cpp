// `glrmask ambiguity`: the grammar's ambiguity, found from its conflicts: the shortest ambiguous
// sentence of every conflict cell (a unifying counterexample), grouped by the nonterminal whose
// derivations differ, each as terminals and, where the lexer allows, as text; and the lexical
// ambiguity, the ties the lexer keeps (docs/ambiguity.md).
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/counterexample_options.h"
#include "apps/grammar_options.h"
#include "glr/analysis/ambiguity_search.h"
#include "glr/analysis/forest_grammar.h"
#include "glr/analysis/terminal_text.h"
#include "glr/compiled_grammar.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kAmbiguityUsage =
    "glrmask ambiguity GRAMMAR [--max-length N] [--max-lookahead K] [--max-configurations C] "
    "[--time-limit SECONDS] [--start S] [--policy glr|lark]";

}  // namespace

int run_ambiguity(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options = take_grammar_options(rest, kStartOption | kPolicyOption);
  Args args(rest, counterexample_bound_options(), {});
  args.expect_positional(1, 1, kAmbiguityUsage);
  const glr::CounterexampleOptions bounds = counterexample_bounds(args);

  const auto compiled = glr::CompiledGrammar::load_lark(args.positional()[0], options);
  const glr::ForestGrammar grammar(compiled);
  const glr::LrGrammar& lr = grammar.lr_grammar();
  const glr::TerminalText text(compiled->dfa());
  auto name = [&](glr::SymbolId s) { return grammar.describe_symbol(s); };
  auto terminals = [&](std::span<const glr::SymbolId> sentence) {
    std::string out;
    for (const glr::SymbolId s : sentence) out += (out.empty() ? "" : " ") + name(s);
    return out.empty() ? std::string("(the empty string)") : out;
  };
  auto as_text = [&](std::span<const glr::SymbolId> sentence) {
    const auto realized = text.realize(sentence);
    return realized ? fmt::format("{:?}", *realized) : std::string("(no text lexes back to it)");
  };

  const auto started = std::chrono::steady_clock::now();
  const glr::AmbiguityReport report = glr::find_ambiguities(grammar.automaton(), bounds);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  fmt::print("grammar: {} terminals, {} nonterminals, {} rules (as written)\n",
             lr.num_terminals() - 1, lr.num_nonterminals() - 1, lr.num_rules() - 1);
  fmt::print(
      "conflict cells: {}: {} ambiguous, {} need more lookahead, {} undecided within the bound "
      "(--max-length {}, --max-lookahead {}, --max-configurations {}); {:.1f} s\n",
      report.cells, report.sentences.size(), report.lookahead_cells, report.undecided_cells,
      bounds.max_length, bounds.max_lookahead, bounds.max_configurations, seconds);

  fmt::print("\nambiguous nonterminals: {}\n", report.by_nonterminal.size());
  for (const glr::AmbiguousSentence& found : report.by_nonterminal) {
    const std::vector<glr::SymbolId>& sentence = found.verdict.first->sentence;
    const std::span<const glr::SymbolId> phrase(sentence.data() + found.start,
                                                found.end - found.start);
    fmt::print("\n{}: {} has two derivations (text {})\n", lr.name(found.nonterminal),
               terminals(phrase), as_text(phrase));
    fmt::print("  {}\n  {}\n", glr::format_tree_brackets(*found.first, lr, name),
               glr::format_tree_brackets(*found.second, lr, name));
    fmt::print("  in the sentence {} ({} terminals, {} trees), state {} on {}\n",
               terminals(sentence), sentence.size(),
               found.verdict.trees ? found.verdict.trees->str() : "?", found.state,
               name(found.lookahead));
  }

  fmt::print("\nshortest ambiguous sentences, one per conflict cell: {}\n",
             report.sentences.size());
  for (const glr::AmbiguousSentence& found : report.sentences) {
    const std::vector<glr::SymbolId>& sentence = found.verdict.first->sentence;
    fmt::print("  {:>3}  {}  |  text {}  |  {} differs; state {} on {}\n", sentence.size(),
               terminals(sentence), as_text(sentence), lr.name(found.nonterminal), found.state,
               name(found.lookahead));
  }

  const std::vector<glr::LexicalTie> ties = glr::lexical_ties(compiled->dfa(), text);
  fmt::print(
      "\nlexical ambiguity: {} tie{} the lexer keeps (strings that several terminals match "
      "with equal length and priority)\n",
      ties.size(), ties.size() == 1 ? "" : "s");
  for (const glr::LexicalTie& tie : ties) {
    std::string names;
    for (const glr::SymbolId t : tie.terminals) names += (names.empty() ? "" : " | ") + name(t);
    fmt::print("  {}: e.g. {}{}\n", names,
               tie.example ? fmt::format("{:?}", *tie.example) : std::string("(no example)"),
               tie.with_ignored ? " (one alternative is %ignore'd: the token may be skipped)" : "");
  }
  return 0;
}

}  // namespace glrmask::app
