#include "apps/limit_options.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include "apps/args.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

// One budget option: its name (the Limits field's, with dashes) and where it writes.
struct LimitOption {
  std::string_view name;
  std::size_t Limits::*count;  // null for max-commit-seconds
  std::string_view what;
};

constexpr LimitOption kLimitOptions[] = {
    {"max-lexer-states", &Limits::max_lexer_states, "lexer DFA states before minimization"},
    {"max-terminal-dwa-forks", &Limits::max_terminal_dwa_forks,
     "lexer configurations between tokens (wfa)"},
    {"max-parser-dwa-states", &Limits::max_parser_dwa_states, "Parser DWA states (wfa)"},
    {"max-parser-dwa-transitions", &Limits::max_parser_dwa_transitions,
     "Parser DWA transitions (wfa)"},
    {"max-compile-memory-mib", &Limits::max_compile_memory_mib,
     "resident memory while the Parser DWA is built"},
    {"max-step-work", nullptr, "GSS edges one parser step may visit"},
    {"max-commit-seconds", nullptr, "wall time of one commit (a token, a text)"},
};

double parse_seconds(std::string_view option, const std::string& text) {
  double parsed = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, parsed);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(parsed) || parsed < 0)
    throw Error(
        fmt::format("option --{}: expected a number of seconds >= 0, got '{}'", option, text),
        ErrorCode::kInvalidArgument);
  return parsed;
}

void set(Limits& limits, const LimitOption& option, const std::string& value) {
  if (option.name == "max-commit-seconds") {
    limits.max_commit_seconds = parse_seconds(option.name, value);
  } else if (option.name == "max-step-work") {
    limits.max_step_work = parse_count(option.name, value, 0);
  } else {
    limits.*option.count = static_cast<std::size_t>(parse_count(option.name, value, 0));
  }
}

}  // namespace

Limits take_limit_options(CommandArgs& args) {
  Limits limits;
  std::set<std::string_view> given;
  std::vector<std::string_view> names;
  for (const LimitOption& option : kLimitOptions) names.push_back(option.name);
  take_options(args, names, [&](std::size_t index, const std::string& value) {
    const LimitOption& option = kLimitOptions[index];
    if (!given.insert(option.name).second)
      throw Error(fmt::format("option --{} given twice", option.name), ErrorCode::kInvalidArgument);
    set(limits, option, value);
  });
  return limits;
}

std::string limit_options_help() {
  const Limits defaults;
  std::string text = "budgets (0: no limit; exceeding one is an error naming it):\n";
  for (const LimitOption& option : kLimitOptions) {
    const std::string value =
        option.name == "max-commit-seconds" ? fmt::format("{}", defaults.max_commit_seconds)
        : option.name == "max-step-work"    ? fmt::format("{}", defaults.max_step_work)
                                            : fmt::format("{}", defaults.*option.count);
    text += fmt::format("  --{:<28} {} (default {})\n", option.name, option.what, value);
  }
  return text;
}

}  // namespace glrmask::app
