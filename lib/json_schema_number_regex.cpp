#include "lib/json_schema_number_regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

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

// What the digits after the point may be.
enum class Fraction { kAny, kZero, kNonZero };

struct Piece {
  Magnitude lo = 0;
  std::optional<Magnitude> hi;  // integer part in [lo, hi]
  Fraction fraction = Fraction::kAny;
};

std::optional<Fraction> meet(Fraction a, Fraction b) {
  if (a == Fraction::kAny) return b;
  if (b == Fraction::kAny || a == b) return a;
  return std::nullopt;
}

std::string fraction_regex(Fraction fraction) {
  switch (fraction) {
    case Fraction::kAny:
      return R"((?:\.[0-9]+)?)";
    case Fraction::kZero:
      return R"((?:\.0+)?)";
    case Fraction::kNonZero:
      return R"(\.[0-9]*[1-9][0-9]*)";
  }
  return "";
}

// Magnitudes m = I.F with L <= m (or L < m) and m <= H (or m < H), as alternatives.
std::vector<Alternative> magnitude_alternatives(Magnitude lower, bool lower_exclusive,
                                                std::optional<Magnitude> upper,
                                                bool upper_exclusive) {
  std::vector<Piece> lower_pieces;
  if (lower_exclusive) {
    lower_pieces = {{lower + 1, std::nullopt, Fraction::kAny}, {lower, lower, Fraction::kNonZero}};
  } else {
    lower_pieces = {{lower, std::nullopt, Fraction::kAny}};
  }
  std::vector<Piece> upper_pieces;
  if (!upper) {
    upper_pieces = {{0, std::nullopt, Fraction::kAny}};
  } else {
    if (*upper >= 1) upper_pieces.push_back({0, *upper - 1, Fraction::kAny});
    if (!upper_exclusive) upper_pieces.push_back({*upper, *upper, Fraction::kZero});
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
      for (auto& [digits, regex] : natural_range(lo, hi))
        out.emplace_back(digits, regex + fraction_regex(*fraction));
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

std::optional<std::string> number_range_regex(std::optional<std::int64_t> lo, bool lo_exclusive,
                                              std::optional<std::int64_t> hi, bool hi_exclusive) {
  std::vector<std::string> alternatives;
  // x >= 0: magnitude bounds straight from the value bounds.
  if (!hi || *hi > 0 || (*hi == 0 && !hi_exclusive)) {
    const bool lower_is_bound = lo && *lo >= 0;
    const Magnitude lower = lower_is_bound ? magnitude_of(*lo) : 0;
    std::optional<Magnitude> upper;
    if (hi) upper = magnitude_of(*hi);
    auto pieces =
        magnitude_alternatives(lower, lower_is_bound && lo_exclusive, upper, hi_exclusive);
    if (!pieces.empty()) alternatives.push_back(longest_first(std::move(pieces)));
  }
  // x = -m, m >= 0: lo <= x becomes m <= -lo, x <= hi becomes m >= -hi.
  if (!lo || *lo < 0 || (*lo == 0 && !lo_exclusive)) {
    const bool lower_is_bound = hi && *hi <= 0;
    const Magnitude lower = lower_is_bound ? magnitude_of(*hi) : 0;
    std::optional<Magnitude> upper;
    if (lo) upper = magnitude_of(*lo);
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
