// The options every grammar-reading command shares: `--start NAME`, `--policy glr|lark`,
// `--skippable TERMINAL` (repeatable, or comma-separated) and `--postlex none|python` (Python's
// indenter between lexer and parser, glr/indenter.h). They are taken out of the argument
// list before the command parses its own options, because Args keeps one value per option and
// `--skippable` may be given several times.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "api/src/constraint_source.h"
#include "api/src/source_registry.h"
#include "apps/commands.h"
#include "glr/compiled_grammar.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::app {

// Which of the shared options a command accepts; the others stay in the argument list, where the
// command's Args reports them as unknown.
enum GrammarOption : std::uint8_t {
  kStartOption = 1,
  kPolicyOption = 2,
  kSkippableOption = 4,
  kPostlexOption = 8,
  kAllGrammarOptions = kStartOption | kPolicyOption | kSkippableOption | kPostlexOption,
};

// Removes the accepted grammar options (both `--name value` and `--name=value`) from `args` and
// returns them as parse options. Throws glrmask::Error naming the option for a missing value, an
// unknown policy or post-lexer, an empty terminal name or a repeated --start / --policy /
// --postlex.
glr::ParseOptions take_grammar_options(CommandArgs& args,
                                       std::uint8_t accepted = kAllGrammarOptions);

// Where a command's grammar comes from: a Lark file (the first positional argument), or the
// option of one of the source registry's other formats (api/src/source_registry.h): `--json-schema
// FILE`, `--regex PATTERN`, `--any-json` (any JSON value; not `--json`, which is an output option
// of `mask`), ... The JSON forms take `--json-whitespace default|compact|flexible`, and a schema
// also `--json-schema-lenient` and `--json-property-order schema|any` (docs/json_schema.md).
struct GrammarSource {
  const SourceFormat* format =
      nullptr;        // the positional file's format (Lark) unless an option chose
  std::string value;  // the option's file or text
  JsonOptions json;

  // True when the grammar is the first positional argument.
  bool needs_path() const { return format->cli_option.empty(); }
};

// Removes the source options from `args`. Throws glrmask::Error for a missing value, two
// sources, or --json-whitespace / --json-schema-lenient without a JSON source.
GrammarSource take_grammar_source(CommandArgs& args);

// The source options with one line each, from the source registry, for --help texts.
std::string source_options_help();

// The source for the library; reads the source's file (`lark_path` for the positional format).
// Throws glrmask::Error for --start with a format that has no rules to choose from.
ConstraintSource constraint_source(const GrammarSource& source, const std::string& lark_path,
                                   const glr::ParseOptions& options);

// The grammar model (`start` names the start rule of a Lark source; with a post-lexer,
// %declare'd terminals are accepted).
GrammarModel load_grammar(const GrammarSource& source, const std::string& lark_path,
                          const std::string& start = "start",
                          glr::PostLexer postlex = glr::PostLexer::kNone);

// The compiled grammar. For a format without rules the start rule is always "start"; --start
// is refused there.
std::shared_ptr<const glr::CompiledGrammar> compile_grammar(const GrammarSource& source,
                                                            const std::string& lark_path,
                                                            const glr::ParseOptions& options);

// How reports name the grammar: the Lark file, the JSON Schema file, `--regex PATTERN` or
// `--any-json`.
std::string grammar_name(const GrammarSource& source, const std::string& lark_path);

// "glr" or "lark", as the options spell them.
std::string policy_name(glr::ConflictPolicy policy);

}  // namespace glrmask::app
