// Regexes for JSON numbers within bounds (JSON Schema's minimum / maximum / exclusive*), exact on
// the spellings they accept. Integers are matched as JSON writes them (-?(0|[1-9][0-9]*)); a range
// becomes an alternation of digit-by-digit ranges, so "-3" and "1000" are decided by their digits,
// not by a parser. Bounded numbers are matched without an exponent (1e2 is refused where 100 is
// accepted: sound, documented).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace glrmask::json_schema {

// Every JSON number.
std::string any_json_number_regex();
// Every JSON integer written without fraction or exponent.
std::string any_json_integer_regex();

// Integers n with lo <= n <= hi (a missing bound is unbounded). nullopt when the range is empty.
std::optional<std::string> integer_range_regex(std::optional<std::int64_t> lo,
                                               std::optional<std::int64_t> hi);

// Numbers x (plain decimal, no exponent) with lo <= x (or lo < x when lo_exclusive) and x <= hi
// (or x < hi). Bounds are integers. nullopt when no number qualifies.
std::optional<std::string> number_range_regex(std::optional<std::int64_t> lo, bool lo_exclusive,
                                              std::optional<std::int64_t> hi, bool hi_exclusive);

}  // namespace glrmask::json_schema
