// The front ends by name: every format a Grammar can be made from ("lark", "json_schema",
// "regex", "any_json"), with what it reads and how it is reached from the command line. The C++
// API (Grammar::from_source), the C ABI (glrmask_grammar_from_source), the Python module, the
// `glrmask` program's source options and its help, and the artifact's stored source all go
// through this table, so a new front end is its own folder and one entry here
// (docs/extending.md).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct ConstraintSource;

// What a format's command-line option takes.
enum class SourceArgument : std::uint8_t {
  kFile,  // a file whose text is the source (`--json-schema FILE`)
  kText,  // the source itself (`--regex PATTERN`)
  kNone,  // nothing (`--any-json`)
};

struct SourceFormat {
  // Stored in artifacts as the source's format: stable, never reused.
  std::uint8_t id;
  std::string_view name;
  std::string_view summary;
  // Names the source in messages when the caller gives no name.
  std::string_view default_name;
  // The `glrmask` program's option that selects the format; empty for the format of the first
  // positional argument (Lark).
  std::string_view cli_option;
  SourceArgument cli_argument;
  // Which of SourceOptions it reads: `grammar` (start rule, policy, skippable terminals,
  // post-lexer) and `json` (whitespace, lenient, property order).
  bool reads_grammar_options;
  bool reads_json_options;
  // The grammar model of the source; throws the front end's errors (kGrammar, kSchema, ...).
  GrammarModel (*build)(const ConstraintSource& source);
};

// Every format, in the order users see them listed.
std::span<const SourceFormat> source_formats();
// The format called `name`, or null.
const SourceFormat* find_source_format(std::string_view name);
// The format `name`; throws glrmask::Error (kInvalidArgument) naming the known ones otherwise.
const SourceFormat& source_format(std::string_view name);
// The format stored as `id`, or null.
const SourceFormat* source_format_by_id(std::uint8_t id);
// "lark, json_schema, regex, any_json": for messages and usage lines.
std::string source_format_names();

}  // namespace glrmask
