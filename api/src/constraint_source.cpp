#include "api/src/constraint_source.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/src/source_registry.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"

namespace glrmask {
namespace {

// Version 2 added the JSON property order, version 3 the JSON Schema default draft, whether
// `format` is asserted and the registered documents; sources of versions 1 (schema order) and 2
// (2020-12, format asserted, no documents) are still read.
constexpr std::uint32_t kSourceVersion = 3;

const char* whitespace_name(JsonWhitespace whitespace) {
  switch (whitespace) {
    case JsonWhitespace::kCompact:
      return "compact";
    case JsonWhitespace::kFlexible:
      return "flexible";
    case JsonWhitespace::kDefault:
      break;
  }
  return "default";
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

}  // namespace

ConstraintSource ConstraintSource::make(std::string_view format, std::string_view text,
                                        const SourceOptions& options, std::string_view name) {
  const SourceFormat& entry = source_format(format);
  ConstraintSource source;
  source.format = std::string(entry.name);
  source.name = std::string(name.empty() ? entry.default_name : name);
  source.text = std::string(text);
  if (entry.reads_grammar_options) source.grammar = options.grammar;
  if (entry.reads_json_options) source.json = options.json;
  return source;
}

GrammarModel ConstraintSource::build() const {
  return source_format(format).build(*this);
}

glr::ParseOptions ConstraintSource::parse_options() const {
  glr::ParseOptions options;
  options.start = grammar.start;
  options.policy = grammar.policy == ConflictPolicy::kLark ? glr::ConflictPolicy::kLark
                                                           : glr::ConflictPolicy::kKeepAll;
  options.skippable = grammar.skippable;
  options.postlex = grammar.postlex == PostLexer::kPython ? glr::PostLexer::kPythonIndenter
                                                          : glr::PostLexer::kNone;
  return options;
}

GrammarOptions grammar_options(const glr::ParseOptions& options) {
  GrammarOptions result;
  result.start = options.start;
  result.policy =
      options.policy == glr::ConflictPolicy::kLark ? ConflictPolicy::kLark : ConflictPolicy::kGlr;
  result.skippable = options.skippable;
  result.postlex = options.postlex == glr::PostLexer::kNone ? PostLexer::kNone : PostLexer::kPython;
  return result;
}

std::shared_ptr<const glr::CompiledGrammar> ConstraintSource::compile(
    const lexer::LexerDfaLimits& lexer_limits, std::size_t max_lookahead_bytes) const {
  return compile(build(), lexer_limits, max_lookahead_bytes);
}

std::shared_ptr<const glr::CompiledGrammar> ConstraintSource::compile(
    GrammarModel model, const lexer::LexerDfaLimits& lexer_limits,
    std::size_t max_lookahead_bytes) const {
  if (!source_format(format).reads_grammar_options && grammar.start != "start")
    throw Error(fmt::format("GrammarOptions::start: the start rule can be chosen for grammars of "
                            "rules only, not for format {}",
                            format),
                ErrorCode::kInvalidArgument);
  glr::ParseOptions options = parse_options();
  options.lexer_limits = lexer_limits;
  options.max_lookahead_bytes = max_lookahead_bytes;
  return glr::CompiledGrammar::compile(std::move(model), options);
}

std::string ConstraintSource::serialize() const {
  BinaryWriter out;
  out.put(kSourceVersion);
  out.put(source_format(format).id);
  out.put_string(name);
  out.put_string(text);
  out.put_string(grammar.start);
  out.put(static_cast<std::uint8_t>(grammar.policy));
  out.put<std::uint64_t>(grammar.skippable.size());
  for (const std::string& terminal : grammar.skippable) out.put_string(terminal);
  out.put(static_cast<std::uint8_t>(grammar.postlex));
  out.put(static_cast<std::uint8_t>(json.whitespace));
  out.put<std::uint8_t>(json.lenient ? 1 : 0);
  out.put(static_cast<std::uint8_t>(json.property_order));
  out.put(static_cast<std::uint8_t>(json.default_draft));
  out.put<std::uint8_t>(json.assert_format ? 1 : 0);
  out.put<std::uint64_t>(json.documents.size());
  for (const JsonDocument& document : json.documents) {
    out.put_string(document.uri);
    out.put_string(document.text);
  }
  return out.take();
}

ConstraintSource ConstraintSource::parse(std::string_view bytes, const std::string& file) {
  BinaryReader in(bytes, file + " (constraint source)");
  const auto version = in.get<std::uint32_t>("source version");
  if (version < 1 || version > kSourceVersion)
    in.fail("unknown constraint source version; save the constraint again");
  ConstraintSource source;
  const auto small = [&](const char* field, std::uint8_t limit) {
    const auto value = in.get<std::uint8_t>(field);
    if (value > limit) in.fail(fmt::format("{} {} is out of range", field, value));
    return value;
  };
  const auto format_id = in.get<std::uint8_t>("format");
  const SourceFormat* format = source_format_by_id(format_id);
  if (format == nullptr) in.fail(fmt::format("format {} is not one this build knows", format_id));
  source.format = std::string(format->name);
  source.name = in.get_string("name");
  source.text = in.get_string("text");
  source.grammar.start = in.get_string("start rule");
  source.grammar.policy = static_cast<ConflictPolicy>(small("conflict policy", 1));
  const auto skippable = in.get<std::uint64_t>("skippable terminals");
  for (std::uint64_t i = 0; i < skippable; ++i)
    source.grammar.skippable.push_back(in.get_string("skippable terminal"));
  source.grammar.postlex = static_cast<PostLexer>(small("post-lexer", 1));
  source.json.whitespace = static_cast<JsonWhitespace>(small("JSON whitespace", 2));
  source.json.lenient = small("JSON lenient flag", 1) != 0;
  if (version >= 2)
    source.json.property_order = static_cast<JsonPropertyOrder>(small("JSON property order", 1));
  if (version >= 3) {
    source.json.default_draft = static_cast<JsonDraft>(
        small("JSON Schema default draft", static_cast<std::uint8_t>(JsonDraft::k2020_12)));
    source.json.assert_format = small("JSON format assertion flag", 1) != 0;
    const auto documents = in.get<std::uint64_t>("registered JSON documents");
    for (std::uint64_t i = 0; i < documents; ++i) {
      JsonDocument document;
      document.uri = in.get_string("registered document URI");
      document.text = in.get_string("registered document text");
      source.json.documents.push_back(std::move(document));
    }
  }
  if (!in.at_end()) in.fail("unexpected bytes after the constraint source");
  return source;
}

std::string StoredConstraint::serialize() const {
  std::string bytes = source.serialize();
  bytes.push_back(static_cast<char>(engine));
  return bytes;
}

StoredConstraint StoredConstraint::parse(std::string_view bytes, const std::string& file) {
  if (bytes.empty())
    throw Error(fmt::format("{}: the artifact holds no constraint source (it was written without "
                            "one); compile it again",
                            file),
                ErrorCode::kArtifact, ErrorLocation::in_file(file));
  StoredConstraint stored;
  stored.source = ConstraintSource::parse(bytes.substr(0, bytes.size() - 1), file);
  const auto engine = static_cast<std::uint8_t>(bytes.back());
  const auto known = std::find_if(all_engines().begin(), all_engines().end(), [&](Engine e) {
    return static_cast<std::uint8_t>(e) == engine && e != Engine::kAuto;
  });
  if (known == all_engines().end())
    throw Error(fmt::format("{}: the artifact names no engine it can serve with", file),
                ErrorCode::kArtifact, ErrorLocation::in_file(file));
  stored.engine = static_cast<Engine>(engine);
  return stored;
}

std::string ConstraintSource::description() const {
  const SourceFormat& entry = source_format(format);
  std::string text_options;
  if (entry.reads_grammar_options) {
    text_options = fmt::format("start {}, policy {}", grammar.start,
                               grammar.policy == ConflictPolicy::kLark ? "lark" : "glr");
    for (const std::string& terminal : grammar.skippable) text_options += ", skippable " + terminal;
    if (grammar.postlex == PostLexer::kPython) text_options += ", postlex python";
  }
  if (entry.reads_json_options) {
    text_options = fmt::format(
        "whitespace {}{}{}", whitespace_name(json.whitespace), json.lenient ? ", lenient" : "",
        json.property_order == JsonPropertyOrder::kAny ? ", properties in any order" : "");
    if (json.default_draft != JsonDraft::k2020_12)
      text_options += fmt::format(", default draft {}", draft_name(json.default_draft));
    if (!json.assert_format) text_options += ", format as annotation";
    if (!json.documents.empty())
      text_options += fmt::format(", {} registered document{}", json.documents.size(),
                                  json.documents.size() == 1 ? "" : "s");
  }
  return fmt::format("{} {}{}", format, name,
                     text_options.empty() ? "" : " (" + text_options + ")");
}

}  // namespace glrmask
