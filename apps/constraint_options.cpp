#include "apps/constraint_options.h"

#include <fmt/format.h>

#include "api/src/constraint_impl.h"
#include "api/src/constraint_source.h"
#include "apps/limit_options.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "wfa/mask_artifact.h"

namespace glrmask::app {
namespace {

std::string kind_text(ConstraintSource::Kind kind) {
  switch (kind) {
    case ConstraintSource::Kind::kLark:
      return "a Lark grammar";
    case ConstraintSource::Kind::kJsonSchema:
      return "a JSON Schema (--json-schema)";
    case ConstraintSource::Kind::kRegex:
      return "a regex (--regex)";
    case ConstraintSource::Kind::kAnyJson:
      return "any JSON (--any-json)";
  }
  return "?";
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text.empty() ? "none" : text;
}

// The first difference between what an artifact was compiled from and what was asked for, as
// "OPTION: the artifact has X, the command asks for Y"; empty when they agree.
std::string first_difference(const ConstraintSource& stored, const ConstraintSource& asked) {
  const auto differs = [](std::string_view option, const std::string& had,
                          const std::string& want) {
    return fmt::format("{}: the artifact was compiled with {}, this command asks for {}", option,
                       had, want);
  };
  if (stored.kind != asked.kind)
    return differs("the grammar source", kind_text(stored.kind), kind_text(asked.kind));
  if (stored.text != asked.text)
    return fmt::format("the {} differs from the one the artifact was compiled from ({})",
                       asked.kind == ConstraintSource::Kind::kRegex ? "pattern" : "grammar text",
                       stored.name);
  if (stored.grammar.start != asked.grammar.start)
    return differs("--start", stored.grammar.start, asked.grammar.start);
  if (stored.grammar.policy != asked.grammar.policy)
    return differs("--policy", stored.grammar.policy == ConflictPolicy::kLark ? "lark" : "glr",
                   asked.grammar.policy == ConflictPolicy::kLark ? "lark" : "glr");
  if (stored.grammar.skippable != asked.grammar.skippable)
    return differs("--skippable", list(stored.grammar.skippable), list(asked.grammar.skippable));
  if (stored.grammar.postlex != asked.grammar.postlex)
    return differs("--postlex", stored.grammar.postlex == PostLexer::kPython ? "python" : "none",
                   asked.grammar.postlex == PostLexer::kPython ? "python" : "none");
  const auto whitespace = [](JsonWhitespace w) {
    return std::string(w == JsonWhitespace::kCompact    ? "compact"
                       : w == JsonWhitespace::kFlexible ? "flexible"
                                                        : "default");
  };
  if (stored.json.whitespace != asked.json.whitespace)
    return differs("--json-whitespace", whitespace(stored.json.whitespace),
                   whitespace(asked.json.whitespace));
  if (stored.json.lenient != asked.json.lenient)
    return differs("--json-schema-lenient", stored.json.lenient ? "it" : "without it",
                   asked.json.lenient ? "it" : "without it");
  if (stored.json.property_order != asked.json.property_order) {
    const auto order = [](JsonPropertyOrder o) {
      return o == JsonPropertyOrder::kAny ? "any" : "schema";
    };
    return differs("--json-property-order", order(stored.json.property_order),
                   order(asked.json.property_order));
  }
  return "";
}

}  // namespace

DecodingCommand parse_decoding_command(CommandArgs argv, std::set<std::string> value_options,
                                       std::set<std::string> flag_options, std::string_view usage) {
  glr::ParseOptions options = take_grammar_options(argv);
  GrammarSource source = take_grammar_source(argv);
  const Limits limits = take_limit_options(argv);
  Args args(std::move(argv), std::move(value_options), std::move(flag_options));
  const std::size_t positional = source.needs_path() ? 1 : 0;
  args.expect_positional(positional, positional, usage);
  return {std::move(options), std::move(source), limits, std::move(args)};
}

ConstraintSource constraint_source(const GrammarSource& source, const std::string& lark_path,
                                   const glr::ParseOptions& options) {
  ConstraintSource result;
  result.grammar = grammar_options(options);
  result.json.lenient = source.schema.lenient;
  result.json.property_order = source.schema.property_order == json_schema::PropertyOrder::kAny
                                   ? JsonPropertyOrder::kAny
                                   : JsonPropertyOrder::kSchema;
  result.json.whitespace =
      source.schema.whitespace == json_schema::Whitespace::kCompact    ? JsonWhitespace::kCompact
      : source.schema.whitespace == json_schema::Whitespace::kFlexible ? JsonWhitespace::kFlexible
                                                                       : JsonWhitespace::kDefault;
  switch (source.kind) {
    case GrammarSource::Kind::kLarkFile:
      result.kind = ConstraintSource::Kind::kLark;
      result.name = lark_path;
      result.text = read_text_file(lark_path);
      break;
    case GrammarSource::Kind::kJsonSchema:
      result.kind = ConstraintSource::Kind::kJsonSchema;
      result.name = source.value;
      result.text = read_text_file(source.value);
      break;
    case GrammarSource::Kind::kRegex:
      result.kind = ConstraintSource::Kind::kRegex;
      result.name = "<regex>";
      result.text = source.value;
      break;
    case GrammarSource::Kind::kJson:
      result.kind = ConstraintSource::Kind::kAnyJson;
      result.name = "<json>";
      break;
  }
  if (result.kind != ConstraintSource::Kind::kLark && options.start != "start")
    throw Error("option --start applies only to Lark grammars");
  return result;
}

Engine parse_engine(std::string_view option, const std::string& name) {
  for (const Engine engine : {Engine::kAuto, Engine::kWfa, Engine::kSpanner, Engine::kOracle,
                              Engine::kLazy, Engine::kStaged})
    if (name == engine_name(engine)) return engine;
  throw Error(fmt::format(
      "option {}: unknown mask engine '{}' (known: auto, wfa, spanner, oracle, lazy, staged)",
      option, name));
}

std::string engine_help() {
  return "  auto     the fastest engine that supports the grammar: wfa, else spanner, else oracle\n"
         "  wfa      the Parser DWA run over the parse stack (docs/wfa.md)\n"
         "  spanner  GreatGramma's token spanner table on the parse stack (docs/spanner.md)\n"
         "  oracle   tries every token on a copy of the parse state (the reference; slow)\n"
         "  lazy     nothing built ahead: each lexer configuration's walk over the vocabulary is\n"
         "           made when first reached (a new JSON Schema's first mask in milliseconds)\n"
         "  staged   lazy until the wfa's automata, built on a thread after the first mask, are\n"
         "           ready; wfa from then on\n";
}

Constraint compile_constraint(const ConstraintSource& source, const Tokenizer& tokenizer,
                              Engine engine, std::size_t build_threads, const Limits& limits) {
  CompileOptions compile;
  compile.limits = limits;
  compile.engine = engine;
  compile.build_threads = build_threads;
  return Constraint::wrap(build_constraint(source, tokenizer, compile));
}

Constraint load_constraint(const std::string& artifact, const ConstraintSource& expected,
                           const Tokenizer& tokenizer, const Limits& limits) {
  const wfa::ArtifactFile file = wfa::ArtifactFile::open(artifact);
  if (!file.source().empty()) {
    const ConstraintSource had = StoredConstraint::parse(file.source(), artifact).source;
    const std::string difference = first_difference(had, expected);
    if (!difference.empty())
      throw Error(
          fmt::format("{}: {}; compile it again with the same options", artifact, difference),
          ErrorCode::kArtifact, ErrorLocation::in_file(artifact));
  }
  return Constraint::load(artifact, tokenizer, limits);
}

}  // namespace glrmask::app
