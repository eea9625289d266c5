#include "api/src/source_registry.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "api/src/constraint_source.h"
#include "api/src/structural_tag.h"
#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/regex/munch_cuts.h"
#include "lexer/regex/regex_parser.h"
#include "lib/core/error.h"
#include "lib/gbnf/gbnf_loader.h"
#include "lib/grammar/regex_constraint.h"
#include "lib/json_schema/compiler.h"
#include "lib/lark/lark_loader.h"

namespace glrmask {
namespace {

json_schema::SchemaOptions schema_options(const JsonOptions& json) {
  json_schema::SchemaOptions options;
  options.whitespace =
      json.whitespace == JsonWhitespace::kCompact    ? json_schema::Whitespace::kCompact
      : json.whitespace == JsonWhitespace::kFlexible ? json_schema::Whitespace::kFlexible
                                                     : json_schema::Whitespace::kDefault;
  options.lenient = json.lenient;
  options.property_order = json.property_order == JsonPropertyOrder::kAny
                               ? json_schema::PropertyOrder::kAny
                               : json_schema::PropertyOrder::kSchema;
  switch (json.default_draft) {
    case JsonDraft::k4:
      options.default_draft = json_schema::Draft::k4;
      break;
    case JsonDraft::k6:
      options.default_draft = json_schema::Draft::k6;
      break;
    case JsonDraft::k7:
      options.default_draft = json_schema::Draft::k7;
      break;
    case JsonDraft::k2019_09:
      options.default_draft = json_schema::Draft::k2019_09;
      break;
    case JsonDraft::k2020_12:
      options.default_draft = json_schema::Draft::k2020_12;
      break;
  }
  options.assert_format = json.assert_format;
  options.documents.reserve(json.documents.size());
  for (const JsonDocument& document : json.documents)
    options.documents.push_back({document.uri, document.text});
  return options;
}

GrammarModel build_lark(const ConstraintSource& source) {
  LarkOptions lark;
  lark.start = source.grammar.start;
  lark.declared_terminals = source.grammar.postlex != PostLexer::kNone;
  return load_lark_text(source.text, source.name, lark);
}

// The terminals maximal munch could extend past a lexeme boundary of the grammar, to be lowered
// finer (lib/gbnf/gbnf_lowering.h).
std::vector<std::string> munch_cut_terminals(const GrammarModel& model) {
  const lexer::LexerDfa dfa = lexer::compile_lexer_dfa(lexer::terminal_specs(model));
  std::vector<std::string> names;
  for (const lexer::MunchCut& cut : lexer::find_munch_cuts(model, dfa))
    for (const std::uint32_t terminal : cut.longer)
      names.push_back(model.terminals()[terminal].name);
  return names;
}

GrammarModel build_gbnf(const ConstraintSource& source) {
  gbnf::LoweringOptions options;
  // GBNF grammars start at `root`; GrammarOptions::start names another rule.
  if (source.grammar.start != "start") options.start = source.grammar.start;
  options.check = munch_cut_terminals;
  return load_gbnf_text(source.text, source.name, options);
}

GrammarModel build_json_schema(const ConstraintSource& source) {
  return json_schema::compile_json_schema_text(source.text, source.name,
                                               schema_options(source.json));
}

GrammarModel build_regex(const ConstraintSource& source) {
  // Whether the empty text is a sentence; a syntax error is left to the lexer's compile, which
  // reports it the same way.
  bool matches_empty = false;
  if (!source.text.empty()) {
    try {
      matches_empty = lexer::parse_regex(source.text, "", "<regex>").min_length() == 0;
    } catch (const Error&) {
    }
  }
  return regex_constraint_grammar(source.text, matches_empty);
}

GrammarModel build_any_json(const ConstraintSource& source) {
  return json_schema::json_grammar(schema_options(source.json));
}

// The ids 0-3 are those of the artifact format's first source kinds; a new format takes the next.
constexpr SourceFormat kFormats[] = {
    {0, "lark", "a grammar in Lark syntax (docs/grammar.md)", "<grammar>", "",
     SourceArgument::kFile, true, false, build_lark},
    {1, "json_schema", "a JSON Schema, draft 4 to 2020-12 (docs/json_schema.md)", "<schema>",
     "--json-schema", SourceArgument::kFile, false, true, build_json_schema},
    {2, "regex", "the whole output matches a regex (Python re syntax)", "<regex>", "--regex",
     SourceArgument::kText, false, false, build_regex},
    {3, "any_json", "any JSON value", "<json>", "--any-json", SourceArgument::kNone, false, true,
     build_any_json},
    {4, "gbnf", "a grammar in GBNF, llama.cpp's format (docs/grammar.md)", "<gbnf>", "--gbnf",
     SourceArgument::kFile, true, false, build_gbnf},
    {5, "structural_tag",
     "free text with tagged segments (tool calls), XGrammar's structural tag (docs/grammar.md)",
     "<structural_tag>", "--structural-tag", SourceArgument::kFile, false, true,
     build_structural_tag},
};

}  // namespace

std::span<const SourceFormat> source_formats() {
  return kFormats;
}

const SourceFormat* find_source_format(std::string_view name) {
  for (const SourceFormat& format : kFormats)
    if (format.name == name) return &format;
  return nullptr;
}

const SourceFormat& source_format(std::string_view name) {
  if (const SourceFormat* format = find_source_format(name)) return *format;
  throw Error(fmt::format("unknown grammar format '{}' (known: {})", name, source_format_names()),
              ErrorCode::kInvalidArgument);
}

const SourceFormat* source_format_by_id(std::uint8_t id) {
  for (const SourceFormat& format : kFormats)
    if (format.id == id) return &format;
  return nullptr;
}

std::string source_format_names() {
  std::string names;
  for (const SourceFormat& format : kFormats) {
    if (!names.empty()) names += ", ";
    names += format.name;
  }
  return names;
}

}  // namespace glrmask
