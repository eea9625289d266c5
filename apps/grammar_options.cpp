#include "apps/grammar_options.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "apps/args.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"

namespace glrmask::app {
namespace {

struct SharedOption {
  std::string_view name;
  GrammarOption bit;
};

constexpr SharedOption kSharedOptions[] = {
    {"start", kStartOption},
    {"policy", kPolicyOption},
    {"skippable", kSkippableOption},
    {"postlex", kPostlexOption},
};

glr::ConflictPolicy parse_policy(const std::string& text) {
  if (text == "glr") return glr::ConflictPolicy::kKeepAll;
  if (text == "lark") return glr::ConflictPolicy::kLark;
  throw Error(fmt::format("option --policy: unknown policy '{}' (expected glr or lark)", text),
              ErrorCode::kInvalidArgument);
}

void add_skippable(const std::string& list, std::vector<std::string>& out) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string name = list.substr(begin, comma - begin);
    if (name.empty())
      throw Error(fmt::format("option --skippable: empty terminal name in '{}'", list),
                  ErrorCode::kInvalidArgument);
    out.push_back(name);
    if (comma == list.size()) return;
    begin = comma + 1;
  }
}

JsonWhitespace parse_json_whitespace(const std::string& name) {
  if (name == "default") return JsonWhitespace::kDefault;
  if (name == "compact") return JsonWhitespace::kCompact;
  if (name == "flexible") return JsonWhitespace::kFlexible;
  throw Error(fmt::format("option --json-whitespace: unknown JSON whitespace mode '{}' (expected "
                          "default, compact or flexible)",
                          name),
              ErrorCode::kInvalidArgument);
}

JsonPropertyOrder parse_json_property_order(const std::string& name) {
  if (name == "schema") return JsonPropertyOrder::kSchema;
  if (name == "any") return JsonPropertyOrder::kAny;
  throw Error(fmt::format("option --json-property-order: unknown property order '{}' (expected "
                          "schema or any)",
                          name),
              ErrorCode::kInvalidArgument);
}

JsonDraft parse_json_draft(const std::string& name) {
  if (name == "4") return JsonDraft::k4;
  if (name == "6") return JsonDraft::k6;
  if (name == "7") return JsonDraft::k7;
  if (name == "2019-09") return JsonDraft::k2019_09;
  if (name == "2020-12") return JsonDraft::k2020_12;
  throw Error(fmt::format("option --json-schema-draft: unknown JSON Schema draft '{}' (expected "
                          "4, 6, 7, 2019-09 or 2020-12)",
                          name),
              ErrorCode::kInvalidArgument);
}

bool parse_json_format(const std::string& name) {
  if (name == "assert") return true;
  if (name == "annotation") return false;
  throw Error(fmt::format("option --json-format: unknown format mode '{}' (expected assert or "
                          "annotation)",
                          name),
              ErrorCode::kInvalidArgument);
}

// `URI=FILE`: the document in FILE, registered under URI (up to the first '=').
JsonDocument read_json_document(const std::string& value) {
  const std::size_t equals = value.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == value.size())
    throw Error(fmt::format("option --json-schema-ref: expected URI=FILE, got '{}'", value),
                ErrorCode::kInvalidArgument);
  JsonDocument document;
  document.uri = value.substr(0, equals);
  try {
    document.text = read_text_file(value.substr(equals + 1));
  } catch (const Error& e) {
    throw Error(fmt::format("option --json-schema-ref {}: {}", document.uri, e.what()), e.code(),
                e.where());
  }
  return document;
}

}  // namespace

glr::ParseOptions take_grammar_options(CommandArgs& args, std::uint8_t accepted) {
  glr::ParseOptions options;
  bool start_given = false;
  bool policy_given = false;
  bool postlex_given = false;
  std::vector<std::string_view> names;
  std::vector<GrammarOption> bits;
  for (const SharedOption& option : kSharedOptions) {
    if (!(accepted & option.bit)) continue;
    names.push_back(option.name);
    bits.push_back(option.bit);
  }
  take_options(args, names, [&](std::size_t index, const std::string& value) {
    switch (bits[index]) {
      case kStartOption:
        if (start_given) throw Error("option --start given twice", ErrorCode::kInvalidArgument);
        if (value.empty())
          throw Error("option --start: empty rule name", ErrorCode::kInvalidArgument);
        start_given = true;
        options.start = value;
        break;
      case kPolicyOption:
        if (policy_given) throw Error("option --policy given twice", ErrorCode::kInvalidArgument);
        policy_given = true;
        options.policy = parse_policy(value);
        break;
      case kPostlexOption:
        if (postlex_given) throw Error("option --postlex given twice", ErrorCode::kInvalidArgument);
        postlex_given = true;
        if (!glr::parse_post_lexer(value, options.postlex)) {
          throw Error(
              fmt::format("option --postlex: unknown post-lexer '{}' (expected none or python)",
                          value),
              ErrorCode::kInvalidArgument);
        }
        break;
      default:
        add_skippable(value, options.skippable);
        break;
    }
  });
  return options;
}

GrammarSource take_grammar_source(CommandArgs& args) {
  GrammarSource source;
  source.format = &source_formats().front();
  for (const SourceFormat& format : source_formats())
    if (format.cli_option.empty()) source.format = &format;
  const SourceFormat* positional = source.format;
  bool whitespace_given = false;
  bool lenient_given = false;
  bool order_given = false;
  // The schema-only options given, for the check after the loop.
  std::vector<std::string> schema_options_given;
  CommandArgs rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string name = arg;
    std::optional<std::string> inline_value;
    if (const std::size_t equals = arg.find('=');
        arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      name = arg.substr(0, equals);
      inline_value = arg.substr(equals + 1);
    }
    auto value = [&]() -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size())
        throw Error(fmt::format("option {} needs a value", name), ErrorCode::kInvalidArgument);
      return args[++i];
    };
    const SourceFormat* chosen = nullptr;
    for (const SourceFormat& format : source_formats())
      if (!format.cli_option.empty() &&
          (format.cli_argument == SourceArgument::kNone ? arg : name) == format.cli_option)
        chosen = &format;
    if (chosen != nullptr) {
      if (source.format != positional) {
        std::string options;
        for (const SourceFormat& format : source_formats())
          if (!format.cli_option.empty())
            options += fmt::format("{}{}", options.empty() ? "" : ", ", format.cli_option);
        throw Error(fmt::format("give only one of {}", options), ErrorCode::kInvalidArgument);
      }
      source.format = chosen;
      if (chosen->cli_argument != SourceArgument::kNone) source.value = value();
    } else if (name == "--json-whitespace") {
      source.json.whitespace = parse_json_whitespace(value());
      whitespace_given = true;
    } else if (arg == "--json-schema-lenient") {
      source.json.lenient = true;
      lenient_given = true;
    } else if (name == "--json-property-order") {
      source.json.property_order = parse_json_property_order(value());
      order_given = true;
    } else if (name == "--json-schema-draft") {
      source.json.default_draft = parse_json_draft(value());
      schema_options_given.push_back(name);
    } else if (name == "--json-format") {
      source.json.assert_format = parse_json_format(value());
      schema_options_given.push_back(name);
    } else if (name == "--json-schema-ref") {
      source.json.documents.push_back(read_json_document(value()));
      schema_options_given.push_back(name);
    } else {
      rest.push_back(arg);
    }
  }
  if (whitespace_given && !source.format->reads_json_options)
    throw Error("option --json-whitespace needs --json-schema FILE or --any-json",
                ErrorCode::kInvalidArgument);
  if (lenient_given && source.format->name != "json_schema")
    throw Error("option --json-schema-lenient needs --json-schema FILE",
                ErrorCode::kInvalidArgument);
  if (order_given && source.format->name != "json_schema")
    throw Error("option --json-property-order needs --json-schema FILE",
                ErrorCode::kInvalidArgument);
  if (!schema_options_given.empty() && source.format->name != "json_schema")
    throw Error(fmt::format("option {} needs --json-schema FILE", schema_options_given.front()),
                ErrorCode::kInvalidArgument);
  args = std::move(rest);
  return source;
}

std::string source_options_help() {
  std::string help;
  for (const SourceFormat& format : source_formats()) {
    const std::string option =
        format.cli_option.empty()                      ? std::string("FILE (positional)")
        : format.cli_argument == SourceArgument::kFile ? fmt::format("{} FILE", format.cli_option)
        : format.cli_argument == SourceArgument::kText ? fmt::format("{} TEXT", format.cli_option)
                                                       : std::string(format.cli_option);
    help += fmt::format("  {:<20} {}\n", option, format.summary);
  }
  return help;
}

ConstraintSource constraint_source(const GrammarSource& source, const std::string& lark_path,
                                   const glr::ParseOptions& options) {
  ConstraintSource result;
  result.format = std::string(source.format->name);
  if (source.needs_path()) {
    result.name = lark_path;
    result.text = read_text_file(lark_path);
  } else if (source.format->cli_argument == SourceArgument::kFile) {
    result.name = source.value;
    result.text = read_text_file(source.value);
  } else {
    result.name = std::string(source.format->default_name);
    result.text = source.value;
  }
  if (source.format->reads_grammar_options) {
    result.grammar = grammar_options(options);
  } else if (options.start != "start") {
    throw Error("option --start applies only to Lark grammars", ErrorCode::kInvalidArgument);
  }
  if (source.format->reads_json_options) result.json = source.json;
  return result;
}

GrammarModel load_grammar(const GrammarSource& source, const std::string& lark_path,
                          const std::string& start, glr::PostLexer postlex) {
  glr::ParseOptions options;
  options.start = start;
  options.postlex = postlex;
  return constraint_source(source, lark_path, options).build();
}

std::shared_ptr<const glr::CompiledGrammar> compile_grammar(const GrammarSource& source,
                                                            const std::string& lark_path,
                                                            const glr::ParseOptions& options) {
  return glr::CompiledGrammar::compile(constraint_source(source, lark_path, options).build(),
                                       options);
}

std::string grammar_name(const GrammarSource& source, const std::string& lark_path) {
  if (source.needs_path()) return lark_path;
  switch (source.format->cli_argument) {
    case SourceArgument::kFile:
      return source.value;
    case SourceArgument::kText:
      return fmt::format("{} {}", source.format->cli_option, source.value);
    case SourceArgument::kNone:
      break;
  }
  return std::string(source.format->cli_option);
}

std::string policy_name(glr::ConflictPolicy policy) {
  return policy == glr::ConflictPolicy::kLark ? "lark" : "glr";
}

}  // namespace glrmask::app
