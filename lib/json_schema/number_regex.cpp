#include "lib/json_schema/number_regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "lib/core/error.h"

namespace glrmask::json_schema {
namespace {

using Magnitude = std::uint64_t;

std::string digit_class(char lo, char hi) {
  if (lo == hi) return std::string(1, lo);
  return fmt::format("[{}-{}]", lo, hi);
}

// Decimal strings of equal length n with x <= s <= y, digit by digit.
std::string same_length(const std::string& x, const std::string& y) {
  if (x.empty()) return "";
  if (x == y) return x;
  if (x.size() == 1) return digit_class(x[0], y[0]);
  const std::string x_rest = x.substr(1);
  const std::string y_rest = y.substr(1);
  if (x[0] == y[0]) return x.substr(0, 1) + "(?:" + same_length(x_rest, y_rest) + ")";
  std::vector<std::string> alternatives;
  char middle_first = x[0];
  if (x_rest.find_first_not_of('0') != std::string::npos) {
    alternatives.push_back(x.substr(0, 1) +
                           "(?:" + same_length(x_rest, std::string(x_rest.size(), '9')) + ")");
    middle_first = static_cast<char>(x[0] + 1);
  }
  char middle_last = y[0];
  std::string high;
  if (y_rest.find_first_not_of('9') != std::string::npos) {
    high = y.substr(0, 1) + "(?:" + same_length(std::string(y_rest.size(), '0'), y_rest) + ")";
    middle_last = static_cast<char>(y[0] - 1);
  }
  if (middle_first <= middle_last)
    alternatives.push_back(digit_class(middle_first, middle_last) +
                           fmt::format("[0-9]{{{}}}", x_rest.size()));
  if (!high.empty()) alternatives.push_back(high);
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return out;
}

Magnitude power_of_ten(std::size_t digits) {
  Magnitude p = 1;
  for (std::size_t i = 0; i < digits; ++i) p *= 10;
  return p;
}

// Canonical decimal naturals in [a, b] (b nullopt = unbounded); a <= b. One alternative per
// number of digits, tagged with that number (SIZE_MAX for the unbounded tail).
using Alternative = std::pair<std::size_t, std::string>;

std::vector<Alternative> natural_range(Magnitude a, std::optional<Magnitude> b) {
  const std::string a_text = fmt::format("{}", a);
  std::vector<Alternative> alternatives;
  if (!b) {
    alternatives.emplace_back(a_text.size(), same_length(a_text, std::string(a_text.size(), '9')));
    alternatives.emplace_back(SIZE_MAX, fmt::format("[1-9][0-9]{{{},}}", a_text.size()));
  } else {
    const std::string b_text = fmt::format("{}", *b);
    for (std::size_t digits = a_text.size(); digits <= b_text.size(); ++digits) {
      const Magnitude lo = digits == a_text.size() ? a : power_of_ten(digits - 1);
      const Magnitude hi = digits == b_text.size() ? *b : power_of_ten(digits) - 1;
      alternatives.emplace_back(digits, same_length(fmt::format("{}", lo), fmt::format("{}", hi)));
    }
  }
  return alternatives;
}

// The lexer gives a terminal the match Python's re.match finds: the first alternative that
// matches, not the longest. Listing alternatives with more digits first makes the two agree,
// so "12" is never cut to "1" by an earlier one-digit alternative.
std::string longest_first(std::vector<Alternative> alternatives) {
  std::stable_sort(alternatives.begin(), alternatives.end(),
                   [](const Alternative& x, const Alternative& y) { return x.first > y.first; });
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i)
    out += (i ? "|" : "") + std::string("(?:") + alternatives[i].second + ")";
  return "(?:" + out + ")";
}

Magnitude magnitude_of(std::int64_t value) {
  return value < 0 ? Magnitude{0} - static_cast<Magnitude>(value) : static_cast<Magnitude>(value);
}

// What the digits F after the point may be, compared as the decimal fraction 0.F (F absent is
// 0) with a bound's fraction digits f (no trailing zeros; empty is 0).
struct Fraction {
  enum Kind : std::uint8_t { kAny, kAtLeast, kMoreThan, kAtMost, kLessThan };
  Kind kind = kAny;
  std::string digits;
  bool operator==(const Fraction&) const = default;
};

struct Piece {
  Magnitude lo = 0;
  std::optional<Magnitude> hi;  // integer part in [lo, hi]
  Fraction fraction;
};

std::string alternation(const std::vector<std::string>& alternatives) {
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return "(?:" + out + ")";
}

// Digits from position `at` of f on: the rest of F compared with the rest of f. `or_equal`
// (>= / <=) decides whether F may equal f. Alternatives begin with different digits, and an
// empty one comes last, so the leftmost-first match is the longest.
std::optional<std::string> compare_rest(const std::string& f, std::size_t at, bool greater,
                                        bool or_equal, bool first) {
  if (at == f.size()) {
    // F so far equals f; more digits make 0.F larger, or equal when all zeros.
    if (greater) return or_equal ? std::string("[0-9]*") : std::string("[0-9]*[1-9][0-9]*");
    if (!or_equal) return std::nullopt;
    return std::string("0*");
  }
  std::vector<std::string> alternatives;
  const char d = f[at];
  if (greater && d < '9')
    alternatives.push_back(fmt::format("[{}-9][0-9]*", static_cast<char>(d + 1)));
  if (!greater && d > '0')
    alternatives.push_back(fmt::format("[0-{}][0-9]*", static_cast<char>(d - 1)));
  if (auto rest = compare_rest(f, at + 1, greater, or_equal, false))
    alternatives.push_back(std::string(1, d) + *rest);
  // F ends here: the rest of f is not zero (f has no trailing zeros), so 0.F < 0.f.
  if (!greater && !first) alternatives.emplace_back();
  if (alternatives.empty()) return std::nullopt;
  return alternation(alternatives);
}

std::optional<std::string> fraction_regex(const Fraction& fraction) {
  const std::string& f = fraction.digits;
  switch (fraction.kind) {
    case Fraction::kAny:
      return R"((?:\.[0-9]+)?)";
    case Fraction::kAtLeast:
      if (f.empty()) return R"((?:\.[0-9]+)?)";
      [[fallthrough]];
    case Fraction::kMoreThan: {
      auto rest = compare_rest(f, 0, true, fraction.kind == Fraction::kAtLeast, true);
      if (!rest) return std::nullopt;
      return R"(\.)" + *rest;
    }
    case Fraction::kAtMost:
    case Fraction::kLessThan: {
      if (f.empty() && fraction.kind == Fraction::kLessThan) return std::nullopt;
      if (f.empty()) return R"((?:\.0+)?)";
      // No digits at all is 0, which is below any bound (and equal to 0 for <= 0).
      auto rest = compare_rest(f, 0, false, fraction.kind == Fraction::kAtMost, true);
      if (!rest) return std::string();
      return R"((?:\.)" + *rest + ")?";
    }
  }
  return std::nullopt;
}

// Both constraints on one integer part. nullopt when no fraction satisfies both; throws when
// the pair is not supported (a fraction between two bounds inside one integer).
std::optional<Fraction> meet(const Fraction& a, const Fraction& b) {
  if (a.kind == Fraction::kAny) return b;
  if (b.kind == Fraction::kAny || a == b) return a;
  const Fraction& lower = a.kind == Fraction::kAtLeast || a.kind == Fraction::kMoreThan ? a : b;
  const Fraction& upper = &lower == &a ? b : a;
  // An upper bound of 0 ("<= .0") against any lower bound above 0 leaves nothing.
  if (upper.kind == Fraction::kAtMost && upper.digits.empty() &&
      (lower.kind == Fraction::kMoreThan || !lower.digits.empty()))
    return std::nullopt;
  throw Error("numeric bounds with fractions inside one integer are not supported",
              ErrorCode::kSchema);
}

// Magnitudes m = I.F between two decimal bounds, as alternatives (more digits first later).
std::vector<Alternative> magnitude_alternatives(const Decimal& lower, bool lower_exclusive,
                                                const std::optional<Decimal>& upper,
                                                bool upper_exclusive) {
  std::vector<Piece> lower_pieces;
  const Magnitude li = lower.integer;
  if (lower.fraction.empty() && !lower_exclusive) {
    lower_pieces = {{li, std::nullopt, {}}};
  } else {
    lower_pieces = {
        {li + 1, std::nullopt, {}},
        {li, li, {lower_exclusive ? Fraction::kMoreThan : Fraction::kAtLeast, lower.fraction}}};
  }
  std::vector<Piece> upper_pieces;
  if (!upper) {
    upper_pieces = {{0, std::nullopt, {}}};
  } else {
    const Magnitude hi = upper->integer;
    if (hi >= 1) upper_pieces.push_back({0, hi - 1, {}});
    if (!(upper->fraction.empty() && upper_exclusive))
      upper_pieces.push_back(
          {hi, hi, {upper_exclusive ? Fraction::kLessThan : Fraction::kAtMost, upper->fraction}});
  }
  std::vector<Alternative> out;
  for (const Piece& a : lower_pieces) {
    for (const Piece& b : upper_pieces) {
      const Magnitude lo = std::max(a.lo, b.lo);
      std::optional<Magnitude> hi = a.hi;
      if (b.hi && (!hi || *b.hi < *hi)) hi = b.hi;
      if (hi && *hi < lo) continue;
      const std::optional<Fraction> fraction = meet(a.fraction, b.fraction);
      if (!fraction) continue;
      const std::optional<std::string> fraction_text = fraction_regex(*fraction);
      if (!fraction_text) continue;
      // same_length() may return several alternatives; the fraction applies to all of them.
      for (auto& [digits, regex] : natural_range(lo, hi))
        out.emplace_back(digits, "(?:" + regex + ")" + *fraction_text);
    }
  }
  return out;
}

}  // namespace

std::string any_json_number_regex() {
  return R"(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+\-]?[0-9]+)?)";
}

std::string any_json_integer_regex() {
  return R"(-?(?:0|[1-9][0-9]*))";
}

std::string integral_exponent_regex() {
  // Exponents of at least k, for k from 1 to 16, with leading zeros allowed.
  const auto at_least = [](int k) {
    if (k <= 9) return fmt::format("0*(?:[1-9][0-9]+|[{}-9])", k);
    return fmt::format("0*(?:[1-9][0-9]{{2,}}|[2-9][0-9]|1[{}-9])", k - 10);
  };
  std::string fractions;
  for (int k = 1; k <= 16; ++k) {
    fractions +=
        fmt::format("|\\.{}[1-9]0*[eE]\\+?{}",
                    k == 1 ? std::string() : fmt::format("[0-9]{{{}}}", k - 1), at_least(k));
  }
  return fmt::format(R"(-?(?:0|[1-9][0-9]*)(?:(?:\.0+)?[eE]\+?[0-9]+{}))", fractions);
}

std::optional<std::string> integer_range_regex(std::optional<std::int64_t> lo,
                                               std::optional<std::int64_t> hi) {
  if (lo && hi && *lo > *hi) return std::nullopt;
  std::vector<std::string> alternatives;
  // Non-negative part: [max(lo, 0), hi].
  if (!hi || *hi >= 0) {
    const Magnitude a = lo && *lo > 0 ? magnitude_of(*lo) : 0;
    std::optional<Magnitude> b;
    if (hi) b = magnitude_of(*hi);
    alternatives.push_back(longest_first(natural_range(a, b)));
  }
  // Negative part: -m with m in [max(-hi, 1), -lo]; "-0" is 0 and allowed with it.
  if (!lo || *lo <= 0) {
    const Magnitude a = hi && *hi < 0 ? magnitude_of(*hi) : 0;
    std::optional<Magnitude> b;
    if (lo) b = magnitude_of(*lo);
    alternatives.push_back("-" + longest_first(natural_range(a, b)));
  }
  if (alternatives.empty()) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return "(?:" + out + ")";
}

std::optional<Decimal> decimal_of(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  const std::string text = fmt::format("{}", value);  // shortest round-trip digits
  if (text.find_first_of("eE") != std::string::npos) return std::nullopt;
  Decimal out;
  std::size_t pos = 0;
  if (text[0] == '-') {
    out.negative = true;
    pos = 1;
  }
  const std::size_t point = text.find('.');
  const std::string integer =
      text.substr(pos, point == std::string::npos ? std::string::npos : point - pos);
  if (integer.empty() || integer.size() > 18) return std::nullopt;
  out.integer = std::stoull(integer);
  if (point != std::string::npos) out.fraction = text.substr(point + 1);
  while (!out.fraction.empty() && out.fraction.back() == '0') out.fraction.pop_back();
  if (out.integer == 0 && out.fraction.empty()) out.negative = false;
  return out;
}

std::optional<std::string> number_range_regex(const std::optional<Decimal>& lo, bool lo_exclusive,
                                              const std::optional<Decimal>& hi, bool hi_exclusive) {
  auto is_zero = [](const Decimal& d) { return d.integer == 0 && d.fraction.empty(); };
  auto magnitude = [](const Decimal& d) { return Decimal{false, d.integer, d.fraction}; };
  std::vector<std::string> alternatives;
  // x >= 0: magnitude bounds straight from the value bounds.
  if (!hi || !hi->negative) {
    if (!(hi && is_zero(*hi) && hi_exclusive)) {
      const bool lower_is_bound = lo && !lo->negative;
      const Decimal lower = lower_is_bound ? magnitude(*lo) : Decimal{};
      auto pieces = magnitude_alternatives(lower, lower_is_bound && lo_exclusive, hi, hi_exclusive);
      if (!pieces.empty()) alternatives.push_back(longest_first(std::move(pieces)));
    }
  }
  // x = -m, m >= 0: lo <= x becomes m <= -lo, x <= hi becomes m >= -hi.
  if (!lo || lo->negative || (is_zero(*lo) && !lo_exclusive)) {
    const bool lower_is_bound = hi && (hi->negative || is_zero(*hi));
    const Decimal lower = lower_is_bound ? magnitude(*hi) : Decimal{};
    std::optional<Decimal> upper;
    if (lo) upper = magnitude(*lo);
    auto pieces =
        magnitude_alternatives(lower, lower_is_bound && hi_exclusive, upper, lo_exclusive);
    if (!pieces.empty()) alternatives.push_back("-" + longest_first(std::move(pieces)));
  }
  if (alternatives.empty()) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return "(?:" + out + ")";
}

}  // namespace glrmask::json_schema
