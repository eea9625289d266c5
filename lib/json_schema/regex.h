// Regex building blocks for JSON values, in the Python `re` syntax grammar terminals use.
//
// Constrained strings (length, pattern, format, enum, property names) are matched in their
// *canonical* spelling: the one Python's json.dumps(ensure_ascii=False) writes. Characters are
// written as themselves except '"' '\\' and the control characters, which use \" \\ \n \r \t \b \f
// or \u00xx. Other spellings of the same string (\u0041 for A, \/ for /) are valid JSON but are
// refused there: a sound restriction (never a wrong string accepted), documented in
// docs/json_schema.md. Unconstrained strings accept every JSON escape.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
// One character of a canonically spelled string, drawn from `allowed`.
std::string canonical_char_regex(const CodePointSet& allowed);
// One character of a canonically spelled string: any character.
std::string canonical_any_char_regex();

// A regex matching exactly `text` (a code point or a whole string), Python-escaped.
std::string escape_code_point(char32_t c);
std::string escape_literal(std::string_view utf8);
// A regex matching exactly the canonical JSON spelling of the string `utf8`, quotes included.
std::string json_string_literal_regex(std::string_view utf8);

// `unit` repeated between `min` and `max` times (unbounded when max is nullopt). Counts above the
// lexer's limit of 1000 are split into nested repeats that keep the count exact.
std::string repeat_regex(const std::string& unit, std::size_t min, std::optional<std::size_t> max);

// The canonical spelling of any string that is none of `names` (quotes included). Returns
// nullopt when a name holds a character that needs escaping (then the caller refuses).
std::optional<std::string> json_string_excluding_regex(const std::vector<std::string>& names);

}  // namespace glrmask::json_schema
