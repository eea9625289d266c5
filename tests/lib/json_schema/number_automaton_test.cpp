// Number automata (lib/json_schema/number_automaton.h) against exact decimal arithmetic
// (exact_decimal.h) on every spelling in a window: bounds of many digits and fractions, two bounds
// inside one integer, multipleOf integers and decimals, complements; and the greedy regex against
// a leftmost-first engine (std::regex's ECMAScript, which picks matches as Python's re does): its
// match from the start of a number followed by a delimiter is the longest prefix in the language.
#include "lib/json_schema/number_automaton.h"

// libstdc++'s <regex> trips GCC 12's -Wmaybe-uninitialized under the sanitizers (header false
// positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "lib/json_schema/exact_decimal.h"

namespace glrmask::json_schema {
namespace {

ExactDecimal decimal(std::string_view text) {
  return *parse_decimal(text);
}

// Spellings of n / 100 for n in [lo, hi] and around each center (hundredths): plain, with a
// trailing zero, and malformed ones.
std::vector<std::string> spellings(long lo, long hi, const std::vector<long>& centers = {}) {
  std::vector<std::string> out = {"-0", "-0.0", "0.00", "00", "1.", "-", ".5", "01"};
  std::vector<long> values;
  for (long n = lo; n <= hi; ++n) values.push_back(n);
  for (const long center : centers)
    for (long n = center - 120; n <= center + 120; ++n) values.push_back(n);
  for (const long n : values) {
    const long magnitude = n < 0 ? -n : n;
    const std::string sign = n < 0 ? "-" : "";
    const std::string whole = std::to_string(magnitude / 100);
    const std::string fraction = fmt::format("{:02d}", magnitude % 100);
    out.push_back(sign + whole + "." + fraction);
    out.push_back(sign + whole + "." + fraction + "0");
    if (magnitude % 10 == 0) out.push_back(sign + whole + "." + fraction.substr(0, 1));
    if (magnitude % 100 == 0) out.push_back(sign + whole);
  }
  return out;
}

bool is_plain_decimal(const std::string& text) {
  static const std::regex plain(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?)");
  return std::regex_match(text, plain);
}

// The automaton, its greedy regex and the predicate agree on every spelling.
template <class Predicate>
void check(const NumberAutomaton& automaton, const std::vector<std::string>& texts,
           Predicate expected) {
  const std::optional<std::string> regex_text = automaton.to_greedy_regex();
  REQUIRE(regex_text);
  INFO(*regex_text);
  const std::regex regex(*regex_text);
  for (const std::string& text : texts) {
    INFO(text);
    const bool in = is_plain_decimal(text) && expected(decimal(text));
    CHECK(automaton.accepts(text) == in);
    CHECK(std::regex_match(text, regex) == in);
    if (in) {
      // Followed by a delimiter, the leftmost-first match takes the whole number.
      std::smatch match;
      const std::string delimited = text + ",";
      REQUIRE(std::regex_search(delimited, match, regex, std::regex_constants::match_continuous));
      CHECK(match.length(0) == static_cast<long>(text.size()));
    }
  }
}

TEST_CASE("number automata compare with bounds of any size and precision") {
  struct Case {
    const char* bound;
    const char* op;
  };
  const std::vector<std::string> texts =
      spellings(-600, 600, {36000, -36000, 273110, 9925, -12345, 4000000, -4000000});
  for (const Case& c : {Case{"360", "<="}, Case{"-360", ">="}, Case{"2731.1", ">"}, Case{"0", ">"},
                        Case{"0", "<="}, Case{"-0.05", ">="}, Case{"99.25", "<"}, Case{"1.5", "=="},
                        Case{"-123.45", "<"}, Case{"0.2", ">="}}) {
    INFO(c.bound << " " << c.op);
    const ExactDecimal bound = decimal(c.bound);
    const std::string op = c.op;
    check(NumberAutomaton::compared(bound, op), texts, [&](const ExactDecimal& x) {
      const int cmp = compare(x, bound);
      return op == "<"    ? cmp < 0
             : op == "<=" ? cmp <= 0
             : op == ">"  ? cmp > 0
             : op == ">=" ? cmp >= 0
                          : cmp == 0;
    });
  }
  // Two fractional bounds inside one integer, and a bound beyond 64 bits.
  const ExactDecimal low = decimal("0.2"), high = decimal("0.7");
  check(NumberAutomaton::compared(low, ">=").intersect(NumberAutomaton::compared(high, "<=")),
        texts,
        [&](const ExactDecimal& x) { return compare(x, low) >= 0 && compare(x, high) <= 0; });
  const ExactDecimal huge = decimal("18446744073709551616");
  const NumberAutomaton above = NumberAutomaton::compared(huge, ">=");
  CHECK(above.accepts("18446744073709551616"));
  CHECK(above.accepts("100000000000000000000000.5"));
  CHECK_FALSE(above.accepts("18446744073709551615.99"));
  CHECK_FALSE(above.accepts("-18446744073709551617"));
  CHECK(decimal("1e-7") == decimal("0.0000001"));
  CHECK(decimal("2.5E+3").text() == "2500");
}

TEST_CASE("number automata for multipleOf, their complements and their greedy regexes") {
  const std::vector<std::string> texts = spellings(-1200, 1200, {10000, -10000});
  for (const char* m : {"1", "0.01", "0.25", "5", "3", "1.5", "20", "0.3"}) {
    INFO("multipleOf " << m);
    const ExactDecimal multiple = decimal(m);
    const NumberAutomaton automaton = NumberAutomaton::multiple_of(*scaled_integer(multiple));
    check(automaton, texts, [&](const ExactDecimal& x) { return *is_multiple(x, multiple); });
    check(automaton.complement(), texts,
          [&](const ExactDecimal& x) { return !*is_multiple(x, multiple); });
  }
  // Beside bounds, the automata stay exact and the regex stays greedy.
  const NumberAutomaton sevens = NumberAutomaton::multiple_of({7, 0})
                                     .intersect(NumberAutomaton::compared(decimal("-30"), ">="))
                                     .intersect(NumberAutomaton::compared(decimal("100"), "<="));
  check(sevens, texts, [&](const ExactDecimal& x) {
    return *is_multiple(x, decimal("7")) && compare(x, decimal("-30")) >= 0 &&
           compare(x, decimal("100")) <= 0;
  });
  CHECK(NumberAutomaton::compared(decimal("1"), "<")
            .intersect(NumberAutomaton::compared(decimal("2"), ">"))
            .empty());
  // Unbounded remainders modulo 7 need a regex beyond any useful size: refused, not truncated.
  CHECK_FALSE(NumberAutomaton::multiple_of({7, 0}).to_greedy_regex(1 << 16));
}

}  // namespace
}  // namespace glrmask::json_schema
