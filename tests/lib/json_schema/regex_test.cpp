// The regex building blocks of the JSON Schema compiler, checked against arithmetic: integer and
// number ranges (every spelling in a window, and the match length a leftmost-first engine such as
// Python's re, which the lexer follows, finds), calendar-exact dates, and pattern translation
// errors. std::regex (ECMAScript: leftmost-first alternation, like Python) runs the ASCII regexes.
#include "lib/json_schema/regex.h"

// libstdc++'s <regex> trips GCC 12's -Wmaybe-uninitialized under the sanitizers (header false
// positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>

#include "lib/core/error.h"
#include "lib/json_schema/formats.h"
#include "lib/json_schema/number_regex.h"
#include "lib/json_schema/pattern.h"

namespace glrmask::json_schema {
namespace {

// Whether `text` is matched in full, and whether a leftmost-first match from its start takes all
// of it (the lexer gives a terminal that match, so a shorter one would cut a number in two).
void check_spelling(const std::regex& regex, const std::string& text, bool expected) {
  INFO(text);
  CHECK(std::regex_match(text, regex) == expected);
  if (expected) {
    std::smatch match;
    REQUIRE(std::regex_search(text, match, regex, std::regex_constants::match_continuous));
    CHECK(match.length(0) == static_cast<long>(text.size()));
  }
}

TEST_CASE("integer ranges match exactly the integers inside, taking every digit") {
  using Range = std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>;
  for (const auto& [lo, hi] :
       {Range{0, 150}, Range{-20, -6}, Range{1000, std::nullopt}, Range{std::nullopt, -3},
        Range{-5, 5}, Range{7, 7}, Range{0, 0}, Range{-1200, 1199}, Range{99, 101},
        Range{std::nullopt, std::nullopt}, Range{-1, std::nullopt}}) {
    const std::optional<std::string> text = integer_range_regex(lo, hi);
    REQUIRE(text);
    INFO(*text);
    const std::regex regex(*text);
    for (std::int64_t n = -1300; n <= 1300; ++n) {
      const bool inside = (!lo || n >= *lo) && (!hi || n <= *hi);
      check_spelling(regex, std::to_string(n), inside);
    }
    const bool zero_inside = (!lo || *lo <= 0) && (!hi || *hi >= 0);
    check_spelling(regex, "-0", zero_inside);
    check_spelling(regex, "007", false);
    check_spelling(regex, "1.0", false);
  }
  CHECK_FALSE(integer_range_regex(5, 4));
}

TEST_CASE("number ranges match exactly the decimals inside, in every plain spelling") {
  struct Case {
    std::optional<double> lo;
    bool lo_exclusive;
    std::optional<double> hi;
    bool hi_exclusive;
  };
  auto decimal = [](std::optional<double> value) -> std::optional<Decimal> {
    if (!value) return std::nullopt;
    return decimal_of(*value);
  };
  for (const Case& c :
       {Case{0, false, 1, false}, Case{-2, true, 10, false}, Case{-2, true, 5, true},
        Case{std::nullopt, false, 0, true}, Case{3, false, std::nullopt, false},
        Case{-10, false, -3, true}, Case{0, true, std::nullopt, false},
        Case{0.5, false, std::nullopt, false}, Case{-2.25, true, 3.75, false},
        Case{std::nullopt, false, 1.5, true}, Case{-0.05, false, 0.05, true},
        Case{1.07, true, 2, false}, Case{-3.5, false, -1.25, false}}) {
    const std::optional<std::string> text =
        number_range_regex(decimal(c.lo), c.lo_exclusive, decimal(c.hi), c.hi_exclusive);
    REQUIRE(text);
    INFO(*text);
    const std::regex regex(*text);
    for (int hundredths = -420; hundredths <= 420; ++hundredths) {
      const double value = hundredths / 100.0;
      const bool inside =
          (!c.lo || (c.lo_exclusive ? value > *c.lo + 1e-9 : value >= *c.lo - 1e-9)) &&
          (!c.hi || (c.hi_exclusive ? value < *c.hi - 1e-9 : value <= *c.hi + 1e-9));
      const int magnitude = std::abs(hundredths);
      const std::string sign = hundredths < 0 ? "-" : "";
      const std::string digits = std::to_string(magnitude / 100);
      const std::string fraction = fmt::format("{:02d}", magnitude % 100);
      check_spelling(regex, sign + digits + "." + fraction, inside);
      check_spelling(regex, sign + digits + "." + fraction + "000", inside);
      if (magnitude % 10 == 0)
        check_spelling(regex, sign + digits + "." + fraction.substr(0, 1), inside);
      if (magnitude % 100 == 0) check_spelling(regex, sign + digits, inside);
    }
    check_spelling(regex, "1e0", false);
    check_spelling(regex, "1.", false);
    check_spelling(regex, "-", false);
  }
  // Two bounds with fractions inside one integer part are refused, not approximated.
  CHECK_THROWS_AS(number_range_regex(decimal_of(0.2), false, decimal_of(0.7), false), Error);
  CHECK_FALSE(number_range_regex(decimal_of(2), true, decimal_of(2), false));
  CHECK_FALSE(decimal_of(1e30));
  CHECK(decimal_of(-0.125)->fraction == "125");
}

// Bounds of several digits: same_length() then yields several alternatives, and the fraction
// must follow each of them (it once followed only the last: 180.0 was refused in [-360, 360]).
TEST_CASE("number ranges with multi-digit bounds take fractions after every integer part") {
  struct Case {
    std::optional<std::int64_t> lo;  // in hundredths
    bool lo_exclusive;
    std::optional<std::int64_t> hi;
    bool hi_exclusive;
  };
  auto decimal = [](std::optional<std::int64_t> hundredths) -> std::optional<Decimal> {
    if (!hundredths) return std::nullopt;
    return decimal_of(static_cast<double>(*hundredths) / 100.0);
  };
  for (const Case& c : {Case{-36000, false, 36000, false}, Case{273100, false, std::nullopt, false},
                        Case{-100050, true, 9925, false}, Case{0, false, 10000000, false},
                        Case{std::nullopt, false, -123450, true}, Case{-9999, false, 9999, true}}) {
    const std::optional<std::string> text =
        number_range_regex(decimal(c.lo), c.lo_exclusive, decimal(c.hi), c.hi_exclusive);
    REQUIRE(text);
    INFO(*text);
    const std::regex regex(*text);
    std::vector<std::int64_t> values;
    for (const std::optional<std::int64_t>& bound : {c.lo, c.hi}) {
      if (!bound) continue;
      for (std::int64_t delta = -250; delta <= 250; ++delta) values.push_back(*bound + delta);
      for (std::int64_t delta : {-100000, -10000, -1000, 1000, 10000, 100000})
        values.push_back(*bound + delta);
    }
    for (const std::int64_t value : {0, 1, -1, 18000, -18050, 100, -100}) values.push_back(value);
    for (const std::int64_t value : values) {
      const bool inside = (!c.lo || (c.lo_exclusive ? value > *c.lo : value >= *c.lo)) &&
                          (!c.hi || (c.hi_exclusive ? value < *c.hi : value <= *c.hi));
      const std::int64_t magnitude = value < 0 ? -value : value;
      const std::string sign = value < 0 ? "-" : "";
      const std::string digits = std::to_string(magnitude / 100);
      const std::string fraction = fmt::format("{:02d}", magnitude % 100);
      check_spelling(regex, sign + digits + "." + fraction, inside);
      check_spelling(regex, sign + digits + "." + fraction + "0", inside);
      if (magnitude % 10 == 0)
        check_spelling(regex, sign + digits + "." + fraction.substr(0, 1), inside);
      if (magnitude % 100 == 0) check_spelling(regex, sign + digits, inside);
    }
  }
}

bool real_date(int year, int month, int day) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

TEST_CASE("format date knows month lengths and leap years") {
  const std::optional<FormatRegex> date = format_regex("date");
  REQUIRE(date);
  const std::regex regex(date->regex);
  for (int year : {1896, 1900, 1903, 1904, 1996, 2000, 2001, 2004, 2100, 2104}) {
    for (int month = 0; month <= 13; ++month) {
      for (int day = 0; day <= 32; ++day) {
        const std::string text = fmt::format("{:04}-{:02}-{:02}", year, month, day);
        INFO(text);
        CHECK(std::regex_match(text, regex) == real_date(year, month, day));
      }
    }
  }
  CHECK_FALSE(format_regex("no-such-format"));
}

TEST_CASE("formats other than date: examples") {
  auto matches = [](const char* format, const std::string& text) {
    return std::regex_match(text, std::regex(format_regex(format)->regex));
  };
  CHECK(matches("ipv4", "0.0.0.0"));
  CHECK(matches("ipv4", "255.255.255.255"));
  CHECK_FALSE(matches("ipv4", "256.1.1.1"));
  CHECK_FALSE(matches("ipv4", "01.1.1.1"));
  CHECK(matches("uuid", "123e4567-e89b-12d3-a456-426614174000"));
  CHECK_FALSE(matches("uuid", "123e4567-e89b-12d3-a456-42661417400"));
  CHECK(matches("date-time", "2024-02-29T00:00:00.5+23:59"));
  CHECK_FALSE(matches("date-time", "2024-02-29T24:00:00Z"));
  CHECK(matches("time", "23:59:59z"));
  CHECK(matches("email", "a.b+c@d-e.fg"));
  CHECK_FALSE(matches("email", "a@b"));
  CHECK(matches("uri", "https://example.com/a?b=c#d"));
  CHECK_FALSE(matches("uri", "no scheme"));
}

std::string translation_error(const std::string& pattern) {
  try {
    translate_pattern(pattern, "s.json#/pattern");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("patterns: what is refused, with the column") {
  using Catch::Matchers::Contains;
  CHECK_THAT(translation_error("ab(?!c)"), Contains("s.json#/pattern: pattern column 3"));
  CHECK_THAT(translation_error("(a)\\1"), Contains("column 4") && Contains("backreference"));
  CHECK_THAT(translation_error("a\\bc"), Contains("column 2") && Contains("\\b"));
  CHECK_THAT(translation_error("a^b"), Contains("column 2") && Contains("anchor ^"));
  CHECK_THAT(translation_error("(a$)"), Contains("anchor $"));
  CHECK_THAT(translation_error("[z-a]"), Contains("bad character range"));
  CHECK_THAT(translation_error("(ab"), Contains("missing )"));
  CHECK_THAT(translation_error("a**"), Contains("multiple repeat"));
  for (const std::string ok : {"^a|b$", "^(?:x|y)+$", "[^\"]{2,3}", "\\d\\w\\s.", "a{2,}?",
                               "(?<name>ab)", "x{", "[^]", "\\u00e9"})
    CHECK(translation_error(ok) == "");
}

TEST_CASE("repeat_regex splits counts above the lexer's limit and keeps them exact") {
  // Checked on a one-letter unit with std::regex, whose own limits are far higher.
  for (const auto& [min, max] : {std::pair<std::size_t, std::optional<std::size_t>>{0, 2500},
                                 {1200, 2100},
                                 {2000, std::nullopt},
                                 {3, 5}}) {
    const std::string text = repeat_regex("a", min, max);
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{3}, std::size_t{5}, std::size_t{999}, std::size_t{1000},
          std::size_t{1001}, std::size_t{1200}, std::size_t{1999}, std::size_t{2000},
          std::size_t{2100}, std::size_t{2101}, std::size_t{2500}, std::size_t{2501}}) {
      INFO(min << ".." << (max ? std::to_string(*max) : "inf") << " n=" << n);
      const bool inside = n >= min && (!max || n <= *max);
      CHECK(std::regex_match(std::string(n, 'a'), std::regex(text)) == inside);
    }
  }
}

}  // namespace
}  // namespace glrmask::json_schema
