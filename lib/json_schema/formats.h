// The string formats JSON Schema names (`format`), as regexes over a string's decoded content.
//
// Each regex is an ECMA-262 pattern that must match the whole content (the callers anchor it):
// the compiler translates it to the string's JSON spelling with translate_anchored_pattern
// (pattern.h), so every escape JSON allows is accepted, and instance_check.h tests a concrete
// value against it. A format this file does not know is an annotation.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace glrmask::json_schema {

// A string `format` as a regex over its decoded content, and the range of content lengths it can
// have (max nullopt = unbounded). nullopt for a format this compiler does not know.
struct FormatRegex {
  std::string regex;
  std::size_t min_length = 0;
  std::optional<std::size_t> max_length;
};
std::optional<FormatRegex> format_regex(std::string_view format);
// Whether format_regex(format) matches exactly the strings of the format: date, uuid, ipv4,
// ipv6, uri, uri-reference, iri, iri-reference, uri-template, json-pointer,
// relative-json-pointer and duration. The others match a subset: time and date-time (no leap
// second), email and hostname (conservative forms), regex (a subset of the
// ECMA-262 syntax, format_grammars.h). A subset is sound where the format must hold and too wide
// as a complement. idn-email, idn-hostname and the formats not listed stay annotations.
bool format_regex_is_exact(std::string_view format);

}  // namespace glrmask::json_schema
