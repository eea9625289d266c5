#include "apps/grammar_options.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "apps/args.h"
#include "lib/core/error.h"
#include "lib/grammar/lark_loader.h"
#include "lib/grammar/regex_constraint.h"

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
  throw Error(fmt::format("option --policy: unknown policy '{}' (expected glr or lark)", text));
}

void add_skippable(const std::string& list, std::vector<std::string>& out) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string name = list.substr(begin, comma - begin);
    if (name.empty())
      throw Error(fmt::format("option --skippable: empty terminal name in '{}'", list));
    out.push_back(name);
    if (comma == list.size()) return;
    begin = comma + 1;
  }
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
        if (start_given) throw Error("option --start given twice");
        if (value.empty()) throw Error("option --start: empty rule name");
        start_given = true;
        options.start = value;
        break;
      case kPolicyOption:
        if (policy_given) throw Error("option --policy given twice");
        policy_given = true;
        options.policy = parse_policy(value);
        break;
      case kPostlexOption:
        if (postlex_given) throw Error("option --postlex given twice");
        postlex_given = true;
        if (!glr::parse_post_lexer(value, options.postlex)) {
          throw Error(fmt::format(
              "option --postlex: unknown post-lexer '{}' (expected none or python)", value));
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
  bool whitespace_given = false;
  bool lenient_given = false;
  bool order_given = false;
  CommandArgs rest;
  auto set_kind = [&](GrammarSource::Kind kind, std::string value) {
    if (source.kind != GrammarSource::Kind::kLarkFile)
      throw Error("give only one of --json-schema, --regex and --any-json");
    source.kind = kind;
    source.value = std::move(value);
  };
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
      if (i + 1 >= args.size()) throw Error(fmt::format("option {} needs a value", name));
      return args[++i];
    };
    if (name == "--json-schema") {
      set_kind(GrammarSource::Kind::kJsonSchema, value());
    } else if (name == "--regex") {
      set_kind(GrammarSource::Kind::kRegex, value());
    } else if (arg == "--any-json") {
      set_kind(GrammarSource::Kind::kJson, "");
    } else if (name == "--json-whitespace") {
      source.schema.whitespace = json_schema::parse_whitespace(value());
      whitespace_given = true;
    } else if (arg == "--json-schema-lenient") {
      source.schema.lenient = true;
      lenient_given = true;
    } else if (name == "--json-property-order") {
      source.schema.property_order = json_schema::parse_property_order(value());
      order_given = true;
    } else {
      rest.push_back(arg);
    }
  }
  const bool is_json =
      source.kind == GrammarSource::Kind::kJsonSchema || source.kind == GrammarSource::Kind::kJson;
  if (whitespace_given && !is_json)
    throw Error("option --json-whitespace needs --json-schema FILE or --any-json");
  if (lenient_given && source.kind != GrammarSource::Kind::kJsonSchema)
    throw Error("option --json-schema-lenient needs --json-schema FILE");
  if (order_given && source.kind != GrammarSource::Kind::kJsonSchema)
    throw Error("option --json-property-order needs --json-schema FILE");
  args = std::move(rest);
  return source;
}

Grammar load_grammar(const GrammarSource& source, const std::string& lark_path,
                     const std::string& start, glr::PostLexer postlex) {
  if (!source.needs_path() && start != "start")
    throw Error("option --start applies only to Lark grammars");
  switch (source.kind) {
    case GrammarSource::Kind::kJsonSchema:
      return json_schema::load_json_schema_file(source.value, source.schema);
    case GrammarSource::Kind::kRegex:
      return regex_constraint_grammar(source.value);
    case GrammarSource::Kind::kJson:
      return json_schema::json_grammar(source.schema);
    case GrammarSource::Kind::kLarkFile:
      break;
  }
  LarkOptions lark;
  lark.start = start;
  lark.declared_terminals = postlex != glr::PostLexer::kNone;
  return load_lark_file(lark_path, lark);
}

std::shared_ptr<const glr::CompiledGrammar> compile_grammar(const GrammarSource& source,
                                                            const std::string& lark_path,
                                                            const glr::ParseOptions& options) {
  if (source.needs_path()) return glr::CompiledGrammar::load_lark(lark_path, options);
  return glr::CompiledGrammar::compile(
      load_grammar(source, lark_path, options.start, options.postlex), options);
}

std::string grammar_name(const GrammarSource& source, const std::string& lark_path) {
  switch (source.kind) {
    case GrammarSource::Kind::kJsonSchema:
      return source.value;
    case GrammarSource::Kind::kRegex:
      return "--regex " + source.value;
    case GrammarSource::Kind::kJson:
      return "--any-json";
    case GrammarSource::Kind::kLarkFile:
      break;
  }
  return lark_path;
}

std::string policy_name(glr::ConflictPolicy policy) {
  return policy == glr::ConflictPolicy::kLark ? "lark" : "glr";
}

}  // namespace glrmask::app
