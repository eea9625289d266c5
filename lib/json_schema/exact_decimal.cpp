#include "lib/json_schema/exact_decimal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace glrmask::json_schema {
namespace {

constexpr long kMaxShift = 1000000;

void normalize(ExactDecimal& d) {
  const std::size_t first = d.integer.find_first_not_of('0');
  d.integer = first == std::string::npos ? "0" : d.integer.substr(first);
  while (!d.fraction.empty() && d.fraction.back() == '0') d.fraction.pop_back();
  if (d.is_zero()) d.negative = false;
}

}  // namespace

std::string ExactDecimal::text() const {
  return (negative ? "-" : "") + integer + (fraction.empty() ? "" : "." + fraction);
}

std::optional<ExactDecimal> parse_decimal(std::string_view text) {
  ExactDecimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    d.negative = true;
    ++i;
  }
  std::string digits;
  std::size_t point = std::string::npos;
  bool any_digit = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      any_digit = true;
    } else if (c == '.' && point == std::string::npos) {
      point = digits.size();
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > kMaxShift) return std::nullopt;
    }
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  // The decimal point sits after `integer_digits` digits, moved by the exponent.
  long integer_digits = static_cast<long>(point == std::string::npos ? digits.size() : point);
  integer_digits += exponent;
  if (integer_digits <= 0) {
    d.integer = "0";
    d.fraction = std::string(static_cast<std::size_t>(-integer_digits), '0') + digits;
  } else if (static_cast<std::size_t>(integer_digits) >= digits.size()) {
    d.integer = digits + std::string(static_cast<std::size_t>(integer_digits) - digits.size(), '0');
  } else {
    d.integer = digits.substr(0, static_cast<std::size_t>(integer_digits));
    d.fraction = digits.substr(static_cast<std::size_t>(integer_digits));
  }
  normalize(d);
  return d;
}

std::optional<ExactDecimal> decimal_of_value(const JsonValue& number) {
  if (!number.is_number()) return std::nullopt;
  if (!number.number_text.empty()) return parse_decimal(number.number_text);
  if (number.is_integer) return parse_decimal(std::to_string(number.integer));
  if (!std::isfinite(number.number)) return std::nullopt;
  return parse_decimal(fmt::format("{}", number.number));
}

ExactDecimal magnitude(ExactDecimal a) {
  a.negative = false;
  return a;
}

int compare(const ExactDecimal& a, const ExactDecimal& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  const int sign = a.negative ? -1 : 1;
  if (a.integer.size() != b.integer.size())
    return a.integer.size() < b.integer.size() ? -sign : sign;
  if (const int c = a.integer.compare(b.integer); c != 0) return c < 0 ? -sign : sign;
  const std::size_t n = std::max(a.fraction.size(), b.fraction.size());
  const std::string fa = a.fraction + std::string(n - a.fraction.size(), '0');
  const std::string fb = b.fraction + std::string(n - b.fraction.size(), '0');
  if (const int c = fa.compare(fb); c != 0) return c < 0 ? -sign : sign;
  return 0;
}

std::optional<ScaledInteger> scaled_integer(const ExactDecimal& m) {
  if (m.negative || m.is_zero()) return std::nullopt;
  const std::string digits = m.integer + m.fraction;
  const std::size_t first = digits.find_first_not_of('0');
  const std::string significant = digits.substr(first);
  if (significant.size() > 18) return std::nullopt;
  return ScaledInteger{std::stoull(significant), m.fraction.size()};
}

ExactDecimal integer_numerator(const ExactDecimal& m) {
  // m = N / 10^f; dividing N by 2 and by 5 at most f times each cancels gcd(N, 10^f).
  std::string digits = m.integer + m.fraction;
  const auto divides = [&](unsigned divisor) {
    unsigned remainder = 0;
    for (const char c : digits)
      remainder = (remainder * 10 + static_cast<unsigned>(c - '0')) % divisor;
    return remainder == 0;
  };
  const auto divide = [&](unsigned divisor) {
    std::string quotient;
    unsigned remainder = 0;
    for (const char c : digits) {
      remainder = remainder * 10 + static_cast<unsigned>(c - '0');
      if (!quotient.empty() || remainder >= divisor)
        quotient += static_cast<char>('0' + remainder / divisor);
      remainder %= divisor;
    }
    digits = quotient.empty() ? "0" : quotient;
  };
  for (const unsigned divisor : {2U, 5U})
    for (std::size_t i = 0; i < m.fraction.size() && divides(divisor); ++i) divide(divisor);
  ExactDecimal out;
  out.integer = digits;
  normalize(out);
  return out;
}

std::optional<bool> is_multiple(const ExactDecimal& a, const ExactDecimal& m) {
  const std::optional<ScaledInteger> scaled = scaled_integer(m);
  if (!scaled) return std::nullopt;
  // a / m = (a * 10^k) / p: a * 10^k must be an integer, then divisible by p.
  if (a.fraction.size() > scaled->k) return false;
  const std::string digits =
      a.integer + a.fraction + std::string(scaled->k - a.fraction.size(), '0');
  // p < 10^18, so remainder * 10 + 9 < 10^19 fits in 64 bits.
  std::uint64_t remainder = 0;
  for (const char c : digits)
    remainder = (remainder * 10 + static_cast<std::uint64_t>(c - '0')) % scaled->p;
  return remainder == 0;
}

}  // namespace glrmask::json_schema
