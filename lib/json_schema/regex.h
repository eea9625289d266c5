// Regex building blocks for JSON values, in the Python `re` syntax grammar terminals use.
//
// Constrained strings (length, pattern, format, enum, property names) are matched in the JSON
// spellings StringSpellings chooses (string_spellings.h): a character as itself (unless it must
// be escaped), as \uXXXX in either case, as a surrogate pair \uD8xx\uDCxx outside the Basic
// Multilingual Plane, and as \" \\ \/ \b \f \n \r \t. Each spelling decodes to one character, so a
// counted repeat of one character counts code points, and a lone surrogate (not a character) is
// never accepted there.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/json_schema/string_spellings.h"

namespace glrmask::json_schema {

// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges.
class CodePointSet {
 public:
  void add(char32_t first, char32_t last);
  void add(const CodePointSet& other);
  CodePointSet complement() const;
  bool contains(char32_t c) const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<std::pair<char32_t, char32_t>>& ranges() const { return ranges_; }

 private:
  std::vector<std::pair<char32_t, char32_t>> ranges_;
};

// One character of any JSON string, with every escape JSON allows.
std::string any_json_string_char_regex();
// The JSON string of any content: `"` chars `"`.
std::string any_json_string_regex();
// One character of a JSON string, drawn from `allowed`, in any of its spellings ("" when
// `allowed` is empty).
std::string json_char_regex(const CodePointSet& allowed,
                            StringSpellings spellings = StringSpellings::kEncoders);
// One character of a JSON string, any character, in any of its spellings (no lone surrogate).
std::string json_any_char_regex(StringSpellings spellings = StringSpellings::kEncoders);

// A regex matching exactly `text` (a code point or a whole string), Python-escaped.
std::string escape_code_point(char32_t c);
std::string escape_literal(std::string_view utf8);
// A regex matching every JSON spelling of the string `utf8`, quotes included.
std::string json_string_literal_regex(std::string_view utf8,
                                      StringSpellings spellings = StringSpellings::kEncoders);

// `unit` repeated between `min` and `max` times (unbounded when max is nullopt). Counts above the
// lexer's limit of 1000 are split into nested repeats that keep the count exact.
std::string repeat_regex(const std::string& unit, std::size_t min, std::optional<std::size_t> max);

}  // namespace glrmask::json_schema
