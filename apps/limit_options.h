// The budget options of the commands that compile or parse (glrmask::Limits, docs/limits.md):
// `--max-lexer-states N`, `--max-terminal-dwa-forks N`, `--max-parser-dwa-states N`,
// `--max-parser-dwa-transitions N`, `--max-compile-memory-mib N`, `--max-step-work N` and
// `--max-commit-seconds S` (0: no limit). Taken out of the argument list before the command
// parses its own options, like the grammar options (grammar_options.h).
#pragma once

#include <string>

#include "apps/commands.h"
#include "glrmask/constraint.hpp"

namespace glrmask::app {

// Removes the budget options (`--name value` or `--name=value`) from `args` and returns the
// limits they set over the defaults. Throws glrmask::Error naming the option for a missing or
// malformed value, or an option given twice.
Limits take_limit_options(CommandArgs& args);

// The options with their defaults, one per line, for --help texts.
std::string limit_options_help();

}  // namespace glrmask::app
