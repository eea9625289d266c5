// Decimal numbers as digit strings, exact at any size: the values JSON Schema compares against
// (bounds, multiples, enum members). A number read from JSON text keeps its text (value.h), so
// `0.1`, `1e-7` and `18446744073709551616` are exactly what the schema wrote; a number built in
// memory falls back to the shortest decimal that reads back as its double.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

struct ExactDecimal {
  bool negative = false;      // never set for zero
  std::string integer = "0";  // decimal digits without leading zeros ("0" for none)
  std::string fraction;       // digits after the point, without trailing zeros

  bool is_zero() const { return integer == "0" && fraction.empty(); }
  bool is_integral() const { return fraction.empty(); }
  // "-12.5", "0", "100": the plain spelling without exponent.
  std::string text() const;
  bool operator==(const ExactDecimal&) const = default;
};

// Parses a JSON number text (sign, digits, fraction, exponent). nullopt for anything else or an
// exponent so large that the digits would not fit in memory (beyond 10^6).
std::optional<ExactDecimal> parse_decimal(std::string_view text);
// The number's exact decimal (its text when it has one).
std::optional<ExactDecimal> decimal_of_value(const JsonValue& number);

// -1, 0 or 1 as a < b, a == b, a > b.
int compare(const ExactDecimal& a, const ExactDecimal& b);
// The magnitude |a|.
ExactDecimal magnitude(ExactDecimal a);

// Whether a is an integer multiple of m (> 0). nullopt when m's digits, scaled to an integer, do
// not fit in 64 bits.
std::optional<bool> is_multiple(const ExactDecimal& a, const ExactDecimal& m);

// The numerator p of m = p / q in lowest terms (m > 0): the integer that a multiple of m which is
// an integer is exactly a multiple of (1.5 = 3/2 gives 3, 0.25 gives 1).
ExactDecimal integer_numerator(const ExactDecimal& m);

// m = p / 10^k with p a positive integer that fits in 64 bits; nullopt otherwise.
struct ScaledInteger {
  std::uint64_t p = 0;
  std::size_t k = 0;
};
std::optional<ScaledInteger> scaled_integer(const ExactDecimal& m);

}  // namespace glrmask::json_schema
