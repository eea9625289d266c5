// The decoding commands (mask, generate, demo, compile) reach the engines through the library
// facade: their grammar options (grammar_options.h) become a ConstraintSource, compiled into a
// glrmask::Constraint with the engine `--engine` names, or loaded from an artifact that must have
// been compiled from the same source and options (the option that differs is named).
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "api/src/constraint_source.h"
#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "glr/compiled_grammar.h"
#include "glrmask/glrmask.hpp"

namespace glrmask::app {

// What mask, generate and compile read first, in this order: the grammar options, the grammar
// source and the budget options taken out of `argv`, then the command's own options, with the
// grammar file as the one positional argument when the source needs a path (else none).
struct DecodingCommand {
  glr::ParseOptions options;
  GrammarSource source;
  Limits limits;
  Args args;
};
DecodingCommand parse_decoding_command(CommandArgs argv, const std::set<std::string>& value_options,
                                       const std::set<std::string>& flag_options,
                                       std::string_view usage);

// An engine's name (glrmask/engines.def); throws glrmask::Error naming `option` otherwise.
Engine parse_engine(std::string_view option, const std::string& name);
// The same names with one line each, for --help texts.
std::string engine_help();

Constraint compile_constraint(const ConstraintSource& source, const Tokenizer& tokenizer,
                              Engine engine, std::size_t build_threads = 0,
                              const Limits& limits = {});

// The constraint of `artifact`, which must have been compiled from `expected` for `tokenizer`;
// throws glrmask::Error (kArtifact) naming the first option (--start, --policy, --skippable,
// --postlex, --json-whitespace, --json-schema-lenient, the grammar or schema itself) that differs.
Constraint load_constraint(const std::string& artifact, const ConstraintSource& expected,
                           const Tokenizer& tokenizer, const Limits& limits = {});

}  // namespace glrmask::app
