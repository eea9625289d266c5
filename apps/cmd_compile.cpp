// `glrmask compile`: compiles a grammar against a tokenizer's vocabulary for the wfa engine,
// prints the statistics of every phase and, with -o, writes the artifact that `glrmask mask
// --artifact` and the library load in milliseconds (wfa/mask_artifact.h).
#include <fmt/format.h>

#include <chrono>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/decoding_inputs.h"
#include "apps/grammar_options.h"
#include "glr/compiled_grammar.h"
#include "lib/tokenizer/tokenizer_choice.h"
#include "lib/tokenizer/vocabulary.h"
#include "wfa/compiled_mask.h"
#include "wfa/mask_artifact.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kUsage =
    "glrmask compile GRAMMAR|--json-schema FILE|--regex PATTERN|--json --tokenizer "
    "NAME|PATH|BASE+DONOR@SIZE "
    "[-o FILE] [--no-early-label-starts] [--build-threads N] [--start S] [--policy glr|lark] "
    "[--skippable T,...]";

double mib(std::size_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

}  // namespace

int run_compile(const CommandArgs& argv) {
  CommandArgs rest = argv;
  for (std::string& arg : rest)
    if (arg == "-o") arg = "--output";
  const glr::ParseOptions options = take_grammar_options(rest);
  const GrammarSource source = take_grammar_source(rest);
  Args args(rest, {"tokenizer", "output", "build-threads"}, {"no-early-label-starts"});
  args.expect_positional(source.needs_path() ? 1 : 0, source.needs_path() ? 1 : 0, kUsage);
  const std::string grammar_path = source.needs_path() ? args.positional()[0] : source.value;
  const std::string tokenizer = args.required("tokenizer");

  const auto started = std::chrono::steady_clock::now();
  const auto grammar = compile_grammar(source, source.needs_path() ? grammar_path : "", options);
  const auto grammar_done = std::chrono::steady_clock::now();
  const Vocabulary vocabulary = load_vocabulary(tokenizer);
  const auto vocabulary_done = std::chrono::steady_clock::now();
  wfa::ParserDwaOptions build_options;
  // For studies of the trade-off: fewer states and a faster build, and get_mask feeding those
  // labels to the GLR parser instead (docs/wfa.md, "Early labels").
  build_options.early_label_starts = !args.flag("no-early-label-starts");
  // The Parser DWA's threads (default: the machine's); any count builds the same automaton.
  if (const auto threads = args.value("build-threads"))
    build_options.threads = parse_count_option("build-threads", *threads, 1);
  const auto compiled = wfa::CompiledMask::compile(grammar, vocabulary, build_options);
  const auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };

  const wfa::CompileStats& c = compiled->stats();
  const lexer::TerminalDwaStats& t = compiled->terminal_dwa().stats();
  const wfa::ParserDwaStats& p = compiled->parser_dwa().stats();
  fmt::print("grammar              {} (policy {}, {} LR states)\n", grammar_path,
             policy_name(options.policy), grammar->table().num_states());
  // Derivation cycles and hidden left recursion are rewritten before the LR automaton is built
  // (glr/cfg_normalization.h); the user should know which rules the automaton no longer has.
  fmt::print("normalization        {}", grammar->normalization().describe());
  fmt::print("tokenizer            {} ({} ids)\n", tokenizer, vocabulary.size());
  fmt::print("terminal DWA         {} forks, {} nodes, {} edges, {} weights\n", t.forks, t.nodes,
             t.edges, t.weights);
  fmt::print("parser DWA           {} states, {} transitions, {} distinct weights\n", p.states,
             p.transitions, p.distinct_weights);
  fmt::print("early-label starts   {} (label, fork) pairs shifted by the automaton\n",
             p.early_starts);
  fmt::print("suspended items      {} (max {} per state)\n", p.suspended_items,
             p.max_items_per_state);
  if (p.guarded_states > 0)
    fmt::print(
        "guarded states       {} (holding tokens until a skippable terminal's fate is read)\n",
        p.guarded_states);
  if (p.branch_groups > 0)
    fmt::print(
        "indenter branches    {} transitions lead to {} ways on that depend on the indenter's "
        "state ({} left to get_mask)\n",
        p.branch_groups, p.branches, p.deferred_branches);
  fmt::print("stack depth read     {} states on the longest acyclic run{}\n",
             p.longest_acyclic_read,
             p.has_cycles ? "; cycles: some runs read arbitrarily deep (right recursion)" : "");
  fmt::print("virtual stack depth  {} (deepest built)\n", p.max_virtual_depth);
  fmt::print("memo entries         {} feeds, {} expansions\n", p.feed_memo_entries,
             p.expand_memo_entries);
  fmt::print("token sets           {} distinct\n", c.distinct_token_sets);
  fmt::print("mask classes         {} (tokens no weight separates; a union's cache identity)\n",
             c.mask_classes);
  fmt::print("automaton bytes      {}\n", compiled->parser_dwa().size_in_bytes());
  fmt::print(
      "time                 grammar {:.3f} s, vocabulary {:.3f} s, terminal DWA {:.3f} s, "
      "parser DWA {:.3f} s ({} threads), mask classes {:.3f} s, total {:.3f} s\n",
      seconds(started, grammar_done), seconds(grammar_done, vocabulary_done),
      c.terminal_dwa_seconds, c.parser_dwa_seconds, p.build_threads, c.weight_classes_seconds,
      seconds(started, std::chrono::steady_clock::now()));
  fmt::print("peak memory          {:.1f} MiB\n", mib(c.peak_memory_bytes));
  if (const auto output = args.value("output")) {
    const auto write_started = std::chrono::steady_clock::now();
    const std::size_t bytes = wfa::write_mask_artifact(*compiled, vocabulary, *output);
    fmt::print("artifact             {} ({:.1f} MiB, written in {:.3f} s)\n", *output, mib(bytes),
               seconds(write_started, std::chrono::steady_clock::now()));
  }
  return 0;
}

}  // namespace glrmask::app
