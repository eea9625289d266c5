// The options every grammar-reading command shares: `--start NAME`, `--policy glr|lark`,
// `--skippable TERMINAL` (repeatable, or comma-separated) and `--postlex none|python` (Python's
// indenter between lexer and parser, glr/indenter.h). They are taken out of the argument
// list before the command parses its own options, because Args keeps one value per option and
// `--skippable` may be given several times.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "apps/commands.h"
#include "glr/compiled_grammar.h"
#include "lib/grammar/grammar.h"
#include "lib/json_schema/compiler.h"

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

// Where a command's grammar comes from: a Lark file (the first positional argument), or one of
// `--json-schema FILE`, `--regex PATTERN`, `--any-json` (any JSON value; not `--json`, which is
// an output option of `mask`). The JSON forms take `--json-whitespace default|compact|flexible`,
// and a schema also `--json-schema-lenient` and `--json-property-order schema|any`
// (docs/json_schema.md).
struct GrammarSource {
  enum class Kind : std::uint8_t { kLarkFile, kJsonSchema, kRegex, kJson };
  Kind kind = Kind::kLarkFile;
  std::string value;  // the schema path or the regex
  json_schema::SchemaOptions schema;

  // True when the grammar is the first positional argument.
  bool needs_path() const { return kind == Kind::kLarkFile; }
};

// Removes the source options from `args`. Throws glrmask::Error for a missing value, two
// sources, or --json-whitespace / --json-schema-lenient without a JSON source.
GrammarSource take_grammar_source(CommandArgs& args);

// The grammar model (`lark_path` is used only for a Lark source; `start` names its start rule;
// with a post-lexer, %declare'd terminals are accepted).
Grammar load_grammar(const GrammarSource& source, const std::string& lark_path,
                     const std::string& start = "start",
                     glr::PostLexer postlex = glr::PostLexer::kNone);

// The compiled grammar. For a JSON or regex source the start rule is always "start"; --start
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
