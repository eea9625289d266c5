#include "apps/constraint_options.h"

#include <fmt/format.h>

#include "api/src/constraint_impl.h"
#include "api/src/constraint_source.h"
#include "api/src/source_registry.h"
#include "apps/limit_options.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "mask/artifact/mask_artifact.h"

namespace glrmask::app {
namespace {

// "a JSON Schema (--json-schema)": how messages name a source's format.
std::string format_text(const std::string& format) {
  const SourceFormat* entry = find_source_format(format);
  if (entry == nullptr) return format;
  if (entry->cli_option.empty()) return fmt::format("{} ({} file)", entry->summary, entry->name);
  return fmt::format("{} ({})", entry->summary, entry->cli_option);
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text.empty() ? "none" : text;
}

const char* draft_name(JsonDraft draft) {
  switch (draft) {
    case JsonDraft::k4:
      return "4";
    case JsonDraft::k6:
      return "6";
    case JsonDraft::k7:
      return "7";
    case JsonDraft::k2019_09:
      return "2019-09";
    case JsonDraft::k2020_12:
      break;
  }
  return "2020-12";
}

// The first difference between what an artifact was compiled from and what was asked for, as
// "OPTION: the artifact has X, the command asks for Y"; empty when they agree.
std::string first_difference(const ConstraintSource& stored, const ConstraintSource& asked) {
  const auto differs = [](std::string_view option, const std::string& had,
                          const std::string& want) {
    return fmt::format("{}: the artifact was compiled with {}, this command asks for {}", option,
                       had, want);
  };
  if (stored.format != asked.format)
    return differs("the grammar source", format_text(stored.format), format_text(asked.format));
  if (stored.text != asked.text)
    return fmt::format("the {} differs from the one the artifact was compiled from ({})",
                       asked.format == "regex" ? "pattern" : "grammar text", stored.name);
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
  if (stored.json.default_draft != asked.json.default_draft)
    return differs("--json-schema-draft", draft_name(stored.json.default_draft),
                   draft_name(asked.json.default_draft));
  if (stored.json.assert_format != asked.json.assert_format) {
    const auto format = [](bool asserted) { return asserted ? "assert" : "annotation"; };
    return differs("--json-format", format(stored.json.assert_format),
                   format(asked.json.assert_format));
  }
  const std::vector<JsonDocument>& had = stored.json.documents;
  const std::vector<JsonDocument>& want = asked.json.documents;
  const auto uris = [](const std::vector<JsonDocument>& documents) {
    std::vector<std::string> names;
    for (const JsonDocument& document : documents) names.push_back(document.uri);
    return list(names);
  };
  if (uris(had) != uris(want)) return differs("--json-schema-ref", uris(had), uris(want));
  for (std::size_t i = 0; i < had.size(); ++i)
    if (had[i].text != want[i].text)
      return fmt::format(
          "--json-schema-ref: the document registered as {} differs from the one the artifact "
          "was compiled with",
          had[i].uri);
  return "";
}

}  // namespace

DecodingCommand parse_decoding_command(CommandArgs argv, const std::set<std::string>& value_options,
                                       const std::set<std::string>& flag_options,
                                       std::string_view usage) {
  glr::ParseOptions options = take_grammar_options(argv);
  GrammarSource source = take_grammar_source(argv);
  const Limits limits = take_limit_options(argv);
  Args args(std::move(argv), value_options, flag_options);
  const std::size_t positional = source.needs_path() ? 1 : 0;
  args.expect_positional(positional, positional, usage);
  return {std::move(options), std::move(source), limits, std::move(args)};
}

Engine parse_engine(std::string_view option, const std::string& name) {
  if (const std::optional<Engine> engine = engine_from_name(name)) return *engine;
  std::string known;
  for (const Engine engine : all_engines())
    known += fmt::format("{}{}", known.empty() ? "" : ", ", engine_name(engine));
  throw Error(fmt::format("option {}: unknown mask engine '{}' (known: {})", option, name, known),
              ErrorCode::kInvalidArgument);
}

std::string engine_help() {
  std::string help;
  for (const Engine engine : all_engines())
    help += fmt::format("  {:<8} {}\n", engine_name(engine), engine_summary(engine));
  return help;
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
  const mask::ArtifactFile file = mask::ArtifactFile::open(artifact);
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
