#include "lib/json_schema/ecma_regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "lib/core/error.h"
#include "lib/core/unicode_utf8.h"
#include "lib/json_schema/backtracking_matcher.h"
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
      return backtracking_search(pattern, text, where);
    throw Error(fmt::format("{}: pattern column {}: the pattern's {} cannot be evaluated on this "
                            "value (only an ASCII pattern on an ASCII value of at most {} bytes "
                            "is evaluated with one)",
                            where, e.column(), feature_name(e.feature()), kMaxFallbackBytes),
                ErrorCode::kSchema, schema_location(where));
  }
}

}  // namespace glrmask::json_schema
