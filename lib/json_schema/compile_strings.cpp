// Strings: minLength / maxLength, pattern, format and the exclusions a complement brings (not a
// pattern, not a format, none of some strings), as one terminal. Each constraint is a regular
// language of quoted strings in every JSON spelling (regex.h); several are intersected with
// leading lookaheads, which the lexer compiles as the product of their automata (exact for quoted
// strings, whose languages are prefix-free; lexer/regex/lookahead_conjunction.h).
#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/json_schema/formats.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/pattern.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

SchemaCompiler::StringParts SchemaCompiler::string_parts(const JsonValue& schema,
                                                         const std::string& pointer) {
  StringParts parts;
  auto add = [](std::vector<std::string>& list, std::string regex) {
    if (std::find(list.begin(), list.end(), regex) == list.end()) list.push_back(std::move(regex));
  };
  const std::optional<std::size_t> min_length = count(schema, pointer, "minLength");
  const std::optional<std::size_t> max_length = count(schema, pointer, "maxLength");
  if (min_length && max_length && *min_length > *max_length) {
    parts.empty = true;
    return parts;
  }
  if ((min_length && *min_length > 0) || max_length)
    add(parts.positive, "\"" +
                            repeat_regex(json_any_char_regex(options_.string_spellings),
                                         min_length.value_or(0), max_length) +
                            "\"");
  auto patterns = [&](const std::string& key) {
    std::vector<std::pair<std::string, std::string>> out;  // (pattern, pointer)
    const JsonValue* value = schema.find(key);
    if (!value) return out;
    const std::string where = pointer_append(pointer, key);
    if (value->is_string()) {
      out.emplace_back(value->string, where);
    } else if (value->is_array()) {
      for (const JsonValue& item : value->items)
        if (item.is_string()) out.emplace_back(item.string, where);
    } else {
      document_.fail(where, "pattern must be a string");
    }
    return out;
  };
  auto translated = [&](const std::pair<std::string, std::string>& p) {
    return "\"" + translate_pattern(p.first, document_.where(p.second), options_.string_spellings) +
           "\"";
  };
  for (const std::string& key : {std::string("pattern"), internal::kPatterns})
    for (const auto& p : patterns(key)) add(parts.positive, translated(p));
  for (const auto& p : patterns(internal::kNotPatterns)) add(parts.negative, translated(p));
  auto formats = [&](const std::string& key, std::vector<std::string>& list) {
    const JsonValue* value = schema.find(key);
    if (!value) return;
    const std::string where = document_.where(pointer_append(pointer, key));
    for (const JsonValue& item : value->is_array() ? value->items : std::vector<JsonValue>{*value})
      if (item.is_string())
        if (const std::optional<FormatRegex> format = format_regex(item.string))
          // Over the decoded content: translated to the JSON spelling like a pattern.
          add(list,
              "\"" + translate_anchored_pattern(format->regex, where, options_.string_spellings) +
                  "\"");
  };
  formats("format", parts.positive);
  formats(internal::kFormats, parts.positive);
  formats(internal::kNotFormats, parts.negative);
  if (const JsonValue* not_in = schema.find(internal::kNotIn)) {
    std::string names;
    for (const JsonValue& item : not_in->items)
      if (item.is_string())
        names += (names.empty() ? "" : "|") +
                 json_string_literal_regex(item.string, options_.string_spellings);
    if (!names.empty()) add(parts.negative, names);
  }
  parts.canonical = !parts.positive.empty() || !parts.negative.empty();
  return parts;
}

std::string SchemaCompiler::string_regex(const StringParts& parts) {
  if (!parts.canonical) return any_json_string_regex();
  std::string regex;
  for (std::size_t i = 1; i < parts.positive.size(); ++i) regex += "(?=" + parts.positive[i] + ")";
  for (const std::string& negative : parts.negative) regex += "(?!" + negative + ")";
  // Exclusions alone: any string in any spelling but a lone surrogate, as the lookarounds read it.
  const std::string body = parts.positive.empty()
                               ? "\"" + json_any_char_regex(options_.string_spellings) + "*\""
                               : parts.positive[0];
  // Grouped behind lookarounds: a body that is an alternation (the names of a propertyNames
  // enum) would otherwise leave the lookarounds on its first alternative only.
  return regex.empty() ? body : regex + "(?:" + body + ")";
}

std::string SchemaCompiler::string(const JsonValue& schema, const std::string& pointer) {
  const StringParts parts = string_parts(schema, pointer);
  if (parts.empty) return "";
  const bool pattern = schema.find("pattern") || schema.find(internal::kPatterns);
  return terminal(string_regex(parts), pattern ? "PATTERN" : "STRING", pointer);
}

}  // namespace glrmask::json_schema::detail
