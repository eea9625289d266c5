// `glrmask conflicts`: where the LALR(1) table has more than one action, i.e. where a GLR parser
// forks. A grammar author reads it to find ambiguities and to see what Lark's policy would keep.
// With --counterexamples each cell is classified: ambiguous (a sentence with two derivations),
// needs more lookahead, or undecided within the bound (docs/ambiguity.md).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/counterexample_options.h"
#include "apps/grammar_options.h"
#include "glr/analysis/conflict_counterexample.h"
#include "glr/analysis/conflict_report.h"
#include "glr/compiled_grammar.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kConflictsUsage =
    "glrmask conflicts GRAMMAR [--start S] [--policy glr|lark] [--counterexamples "
    "[--max-lookahead K] [--max-length N] [--max-configurations C] [--time-limit SECONDS]]";

// The text after the header: one block per conflict, each starting with "\nstate ".
std::vector<std::size_t> block_starts(const std::string& text) {
  std::vector<std::size_t> starts;
  for (auto at = text.find("\nstate "); at != std::string::npos; at = text.find("\nstate ", at + 1))
    starts.push_back(at);
  return starts;
}

}  // namespace

int run_conflicts(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options = take_grammar_options(rest, kStartOption | kPolicyOption);
  Args args(rest, counterexample_bound_options(), {"counterexamples"});
  args.expect_positional(1, 1, kConflictsUsage);
  const glr::CounterexampleOptions bounds = counterexample_bounds(args);
  const bool counterexamples = args.flag("counterexamples");
  if (!counterexamples) {
    for (const char* name : kCounterexampleBoundOptions)
      if (args.value(name))
        throw Error(fmt::format("option --{} needs --counterexamples", name),
                    ErrorCode::kInvalidArgument);
  }

  const auto grammar = glr::CompiledGrammar::load_lark(args.positional()[0], options);
  glr::ConflictReport report = glr::report_conflicts(grammar->lalr());

  // Under the lark policy only the cells that still fork matter to the parser: reductions of
  // equal rule priority. The header keeps the counts of the full table.
  std::string policy_line = "policy: glr (every conflict is a fork)\n";
  if (options.policy == glr::ConflictPolicy::kLark) {
    const std::size_t all = report.conflicts.size();
    std::erase_if(report.conflicts,
                  [](const glr::Conflict& conflict) { return conflict.lark_actions.size() < 2; });
    policy_line = fmt::format("policy: lark ({} of {} cells still fork; only those are listed)\n",
                              report.conflicts.size(), all);
  }
  std::string text = glr::format_conflict_report(grammar->lalr(), report);
  // The policy line goes right after the header, before the first conflict block.
  const std::size_t header_end = std::min(text.find("\n\n"), text.size());
  text.insert(header_end == text.size() ? text.size() : header_end + 1, policy_line);
  if (!counterexamples) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }

  // Each block gets its verdict; a summary follows.
  const GrammarModel& model = grammar->grammar();
  auto name = [&](glr::SymbolId terminal) -> std::string {
    if (terminal == grammar->end_of_input()) return "$END";
    const Terminal& t = model.terminal(glr::grammar_terminal(terminal));
    if (t.is_literal && t.flags.find('i') == std::string::npos)
      return fmt::format("{:?}", t.literal);
    return t.name;
  };
  glr::CounterexampleFinder finder(grammar->lalr());
  const std::vector<std::size_t> starts = block_starts(text);
  std::string out = text.substr(0, starts.empty() ? text.size() : starts.front());
  std::size_t ambiguous = 0, artifacts = 0, lookahead = 0, unbounded = 0, undecided = 0;
  std::uint32_t most_lookahead = 0;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
    out += text.substr(starts[i], end - starts[i]);
    const glr::Conflict& conflict = report.conflicts[i];
    const glr::ConflictVerdict verdict = finder.classify(conflict, bounds);
    out += glr::format_verdict(grammar->lalr(), conflict, verdict, bounds, name);
    switch (verdict.kind) {
      case glr::ConflictClass::kAmbiguous:
        ++ambiguous;
        break;
      case glr::ConflictClass::kNeedsLookahead:
        if (verdict.product_exhausted) {
          ++unbounded;
        } else if (verdict.lookahead == 1) {
          ++artifacts;
        } else {
          ++lookahead;
          most_lookahead = std::max(most_lookahead, verdict.lookahead);
        }
        break;
      case glr::ConflictClass::kUndecided:
        ++undecided;
        break;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out += fmt::format(
      "\ncounterexamples: {} cells: {} ambiguous, {} need more lookahead ({} LALR merge "
      "artifacts, {} separated by at most {} tokens, {} not ambiguous but not separated by {} "
      "tokens), {} undecided within the bound; {:.1f} s\n",
      starts.size(), ambiguous, lookahead + artifacts + unbounded, artifacts, lookahead,
      most_lookahead, unbounded, bounds.max_lookahead, undecided, seconds);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace glrmask::app
