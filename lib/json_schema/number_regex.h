// Regexes for JSON numbers within bounds (JSON Schema's minimum / maximum / exclusive*), exact on
// the spellings they accept. Integers are matched as JSON writes them (-?(0|[1-9][0-9]*)); a range
// becomes an alternation of digit-by-digit ranges, so "-3" and "1000" are decided by their digits,
// not by a parser. Bounded numbers are matched without an exponent (1e2 is refused where 100 is
// accepted: sound, documented); at the bound's integer part the fraction digits are compared
// digit by digit (x >= 0.25 takes 0.3 and 0.250, not 0.2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace glrmask::json_schema {

// Every JSON number.
std::string any_json_number_regex();
// Every JSON integer written without fraction or exponent.
std::string any_json_integer_regex();
// Integral values written with an exponent, in every form Python's float repr writes one: an
// integer mantissa (with a zero fraction or none) and an exponent >= 0, or a mantissa with k <= 16
// significant fraction digits and an exponent >= k (1.2345e+20). A subset of the integral
// spellings with an exponent (the whole set is not regular: it compares a count with a number).
std::string integral_exponent_regex();

// Integers n with lo <= n <= hi (a missing bound is unbounded). nullopt when the range is empty.
std::optional<std::string> integer_range_regex(std::optional<std::int64_t> lo,
                                               std::optional<std::int64_t> hi);

// A bound as a plain decimal: sign, integer part and fraction digits (no trailing zeros).
struct Decimal {
  bool negative = false;
  std::uint64_t integer = 0;
  std::string fraction;
};
// The decimal a double prints as (shortest round-trip digits); nullopt when that needs an
// exponent or more than 18 integer digits.
std::optional<Decimal> decimal_of(double value);

// Numbers x (plain decimal, no exponent) with lo <= x (or lo < x when lo_exclusive) and x <= hi
// (or x < hi). nullopt when no number qualifies. Throws glrmask::Error for two bounds with
// fractions inside one integer (0.2 <= x <= 0.7), which is not supported.
std::optional<std::string> number_range_regex(const std::optional<Decimal>& lo, bool lo_exclusive,
                                              const std::optional<Decimal>& hi, bool hi_exclusive);

}  // namespace glrmask::json_schema
