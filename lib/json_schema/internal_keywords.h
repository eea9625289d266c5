// Keywords the compiler writes into schemas it builds (merges, complements, distributed
// branches) for constraints JSON Schema has no keyword for. Each starts with a NUL, which no
// key of a schema read from a file holds in practice, so they never collide with real keywords;
// they travel through merges and memo keys like any other keyword.
#pragma once

#include <string>
#include <string_view>

namespace glrmask::json_schema::internal {

inline const std::string kForbidden("\0forbidden", 10);      // [names] no member of these names
inline const std::string kPatterns("\0patterns", 9);         // [patterns] every one matches
inline const std::string kNotPatterns("\0notPatterns", 12);  // [patterns] none matches
inline const std::string kFormats("\0formats", 8);           // [formats] every one holds
inline const std::string kNotFormats("\0notFormats", 11);    // [formats] none holds
inline const std::string kNotIn("\0notIn", 6);               // [values] the value is none of these
inline const std::string kNotInteger("\0notInteger", 11);    // true: a number with a fraction
inline const std::string kMultiples("\0multiples", 10);      // [numbers] multipleOf each
inline const std::string kNotMultiples("\0notMultiples", 13);  // [numbers] a multiple of none
inline const std::string kContains("\0contains", 9);           // [schemas] each matched by an item
// [{"contains": schema, "minContains": n, "maxContains": m}] each: the number of items matching
// the schema is within the bounds (a part's contains with its own bounds, beside another's).
inline const std::string kCountedContains("\0countedContains", 16);
// [{"from": k, "schema": schema}] each: some item at position k or later matches the schema (the
// complement of `items` after a prefix).
inline const std::string kContainsFrom("\0containsFrom", 13);
// [{"patternProperties": ..., "additionalProperties": ...}] one entry per part of a conjunction
// whose parts each constrain the keys they do not declare: a key must satisfy every entry.
inline const std::string kKeyParts("\0keyParts", 9);
// [{"names": [...], "patterns": [...], "value": schema}] each: some member's key is none of the
// names and matches none of the patterns, and its value satisfies the schema (the complement of
// additionalProperties). With "matches" instead of "patterns": the key matches that pattern
// (the complement of patternProperties).
inline const std::string kSomeMember("\0someMember", 11);
// [schemas] further conjuncts that hold only combinators (anyOf, oneOf, not, if/then/else,
// dependentSchemas): what a merge of several parts could not fold into one keyword set.
inline const std::string kAlso("\0also", 5);

// [documents] at the root of a bundle (references.h): the registered documents its references
// reach, each `$ref` rewritten to a pointer into this list.
inline const std::string kResources("\0resources", 10);

inline bool is_internal(std::string_view key) {
  return !key.empty() && key[0] == '\0';
}

}  // namespace glrmask::json_schema::internal
