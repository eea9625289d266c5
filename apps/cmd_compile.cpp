// `glrmask compile`: compiles a grammar against a tokenizer's vocabulary for the wfa engine
// (through the library facade), prints the statistics of every phase and, with -o, writes the
// artifact that `glrmask mask --artifact` and glrmask::Constraint::load read in milliseconds.
// On a terminal, a compile that runs longer than two seconds shows its elapsed time and memory.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string_view>
#include <thread>

#include "api/src/constraint_impl.h"
#include "api/src/limits_internal.h"
#include "apps/args.h"
#include "apps/commands.h"
#include "apps/constraint_options.h"
#include "apps/grammar_options.h"
#include "apps/limit_options.h"
#include "glr/compiled_grammar.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/process_memory.h"
#include "mask/compiled/compiled_mask.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kCompileUsage =
    "glrmask compile GRAMMAR --tokenizer "
    "NAME|PATH|BASE+DONOR@SIZE "
    "[-o FILE] [--no-early-label-starts] [--build-threads N] [--start S] [--policy glr|lark] "
    "[--skippable T,...] [--max-... N: budgets, docs/limits.md]";

double mib(std::size_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// While alive, and only when stderr is a terminal: after two seconds, rewrites one status line
// every second with the elapsed time and the resident memory; the destructor clears it.
class ProgressLine {
 public:
  ProgressLine() {
    if (::isatty(STDERR_FILENO) == 0) return;
    thread_ = std::thread([this] { run(); });
  }
  ~ProgressLine() {
    if (!thread_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  void run() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    bool shown = false;
    while (!wake_.wait_for(lock, std::chrono::seconds(1), [&] { return done_; })) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (seconds < 2) continue;
      fmt::print(stderr, "\r  compiling... {:.0f} s, {:.0f} MiB resident ", seconds,
                 mib(resident_memory_bytes()));
      std::fflush(stderr);
      shown = true;
    }
    if (shown) {
      fmt::print(stderr, "\r{:60}\r", "");
      std::fflush(stderr);
    }
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
};

}  // namespace

int run_compile(const CommandArgs& argv) {
  CommandArgs rest = argv;
  for (std::string& arg : rest)
    if (arg == "-o") arg = "--output";
  const auto [options, source, limits, args] = parse_decoding_command(
      rest, {"tokenizer", "output", "build-threads"}, {"no-early-label-starts"}, kCompileUsage);
  const std::string grammar_path = source.needs_path() ? args.positional()[0] : source.value;
  const std::string tokenizer_name = args.required("tokenizer");

  const std::size_t threads = static_cast<std::size_t>(args.count("build-threads", 1).value_or(0));
  const ConstraintSource constraint_source_ =
      constraint_source(source, source.needs_path() ? grammar_path : "", options);

  const auto started = std::chrono::steady_clock::now();
  const Tokenizer tokenizer = Tokenizer::load(tokenizer_name);
  const auto vocabulary_done = std::chrono::steady_clock::now();
  std::optional<Constraint> built;
  {
    const ProgressLine progress;
    mask::ParserDwaOptions build_options;
    // For studies of the trade-off: fewer states and a faster build, and get_mask feeding those
    // labels to the GLR parser instead (docs/wfa.md, "Early labels"). Not a library option.
    build_options.early_label_starts = !args.flag("no-early-label-starts");
    build_options.threads = threads;
    apply_compile_limits(limits, build_options);
    CompileOptions compile;
    compile.engine = Engine::kWfa;
    compile.limits = limits;
    built =
        Constraint::wrap(build_constraint(constraint_source_, tokenizer, compile, &build_options));
  }
  const Constraint& constraint = *built;
  const auto grammar = constraint.impl().grammar;
  const auto& compiled = constraint.impl().compiled;
  const auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };

  const mask::CompileStats& c = compiled->stats();
  const lexer::TerminalDwaStats& t = compiled->terminal_dwa().stats();
  const mask::ParserDwaStats& p = compiled->parser_dwa().stats();
  fmt::print("grammar              {} (policy {}, {} LR states)\n",
             grammar_name(source, source.needs_path() ? grammar_path : ""),
             policy_name(options.policy), grammar->table().num_states());
  // Derivation cycles and hidden left recursion are rewritten before the LR automaton is built
  // (glr/cfg_normalization.h); the user should know which rules the automaton no longer has.
  fmt::print("normalization        {}", grammar->normalization().describe());
  fmt::print("tokenizer            {} ({} ids)\n", tokenizer_name, tokenizer.vocab_size());
  fmt::print("terminal DWA         {} forks, {} nodes, {} edges, {} weights\n", t.forks, t.nodes,
             t.edges, t.weights);
  fmt::print("parser DWA           {} states, {} transitions, {} distinct weights\n", p.states,
             p.transitions, p.distinct_weights);
  fmt::print("early-label starts   {} (label, fork) pairs shifted by the automaton\n",
             p.early_starts);
  fmt::print("parser DWA digest    {:016x}\n", compiled->parser_dwa_digest());
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
      "time                 vocabulary {:.3f} s, grammar {:.3f} s, terminal DWA {:.3f} s, "
      "parser DWA {:.3f} s ({} threads), mask classes {:.3f} s, total {:.3f} s\n",
      seconds(started, vocabulary_done), constraint.statistics().grammar_seconds,
      c.terminal_dwa_seconds, c.parser_dwa_seconds, p.build_threads, c.weight_classes_seconds,
      seconds(started, std::chrono::steady_clock::now()));
  if (const auto output = args.value("output")) {
    const auto write_started = std::chrono::steady_clock::now();
    constraint.save(*output);
    fmt::print("artifact             {} ({:.1f} MiB, written in {:.3f} s)\n", *output,
               mib(std::filesystem::file_size(*output)),
               seconds(write_started, std::chrono::steady_clock::now()));
  }
  // The process's peak so far, writing the artifact included: what `time -v` reports.
  fmt::print("peak memory          {:.1f} MiB\n", mib(peak_memory_bytes()));
  return 0;
}

}  // namespace glrmask::app
