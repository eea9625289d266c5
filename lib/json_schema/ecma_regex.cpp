// libstdc++'s <regex> trips GCC 12's -Wmaybe-uninitialized inside std::function when built with
// the sanitizers (a false positive in the header); it is confined to this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "lib/json_schema/ecma_regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <string_view>

#include "lib/core/error.h"
#include "lib/core/unicode_utf8.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/pattern_ast.h"
#include "lib/json_schema/pattern_nfa.h"

namespace glrmask::json_schema {
namespace {

bool ecma_is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

const char* feature_name(PatternFeature feature) {
  switch (feature) {
    case PatternFeature::kLookaround:
      return "lookaround";
    case PatternFeature::kBackreference:
      return "backreference";
    case PatternFeature::kWordBoundary:
      return "word boundary";
    case PatternFeature::kInnerAnchor:
      return "anchor inside the pattern";
    case PatternFeature::kNone:
      break;
  }
  return "construct";
}

// The patterns the automaton cannot hold, on a value where std::regex is exact and bounded.
bool std_regex_search(const std::string& pattern, const std::string& text,
                      const std::string& where) {
  try {
    return std::regex_search(text, std::regex(pattern, std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    throw Error(fmt::format("{}: pattern cannot be evaluated: {}", where, e.what()),
                ErrorCode::kSchema, schema_location(where));
  }
}

}  // namespace

bool ecma_search(const std::string& pattern, const std::string& text, const std::string& where) {
  if (const auto offset = find_invalid_utf8(text)) {
    throw Error(fmt::format("{}: pattern cannot be evaluated on a value that is not valid UTF-8 "
                            "(byte offset {})",
                            where, *offset),
                ErrorCode::kSchema, schema_location(where));
  }
  try {
    return PatternNfa(parse_pattern(pattern, where), where).search(text);
  } catch (const PatternError& e) {
    if (e.feature() == PatternFeature::kNone) throw;
    if (ecma_is_ascii(pattern) && ecma_is_ascii(text) && text.size() <= kMaxFallbackBytes)
      return std_regex_search(pattern, text, where);
    throw Error(fmt::format("{}: pattern column {}: the pattern's {} cannot be evaluated on this "
                            "value (only an ASCII pattern on an ASCII value of at most {} bytes "
                            "is evaluated with one)",
                            where, e.column(), feature_name(e.feature()), kMaxFallbackBytes),
                ErrorCode::kSchema, schema_location(where));
  }
}

}  // namespace glrmask::json_schema
