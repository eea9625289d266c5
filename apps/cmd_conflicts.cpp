// `glrmask conflicts`: where the LALR(1) table has more than one action, i.e. where a GLR parser
// forks. A grammar author reads it to find ambiguities and to see what Lark's policy would keep.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "glr/compiled_grammar.h"
#include "glr/conflict_report.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kUsage = "glrmask conflicts GRAMMAR [--start S] [--policy glr|lark]";

}  // namespace

int run_conflicts(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options = take_grammar_options(rest, kStartOption | kPolicyOption);
  Args args(rest, {}, {});
  args.expect_positional(1, 1, kUsage);

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
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace glrmask::app
