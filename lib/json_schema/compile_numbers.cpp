// Numbers: bounds (minimum, maximum, exclusive*), multipleOf, integer-ness, and the exclusions a
// complement brings (not a multiple, not an integer, none of some values). Plain bounds that fit
// in 64 bits use the compact digit regexes of number_regex.h; everything else goes through the
// number automata (number_automaton.h), which handle decimals of any size and precision. Bounded
// or otherwise constrained numbers are plain decimals: no exponent (documented).
#include <fmt/format.h>

#include "lib/core/error.h"
#include "lib/json_schema/exact_decimal.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/number_automaton.h"
#include "lib/json_schema/number_regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

struct Bound {
  std::optional<ExactDecimal> value;
  bool exclusive = false;
};

// The old digit-regex form of a decimal (integer part in 64 bits), when it has one.
std::optional<Decimal> small_decimal(const ExactDecimal& d) {
  if (d.integer.size() > 18) return std::nullopt;
  return Decimal{d.negative, std::stoull(d.integer), d.fraction};
}

std::optional<std::int64_t> small_integer(const ExactDecimal& d) {
  if (!d.is_integral() || d.integer.size() > 18) return std::nullopt;
  const auto magnitude = static_cast<std::int64_t>(std::stoull(d.integer));
  return d.negative ? -magnitude : magnitude;
}

}  // namespace

std::string SchemaCompiler::number(const JsonValue& schema, const std::string& pointer,
                                   bool integer) {
  auto read_number = [&](const JsonValue& value, const std::string& where) {
    const std::optional<ExactDecimal> d = decimal_of_value(value);
    if (!d) document_.fail(where, "must be a number");
    return *d;
  };
  auto bound = [&](bool lower) {
    const char* inclusive_key = lower ? "minimum" : "maximum";
    const char* exclusive_key = lower ? "exclusiveMinimum" : "exclusiveMaximum";
    Bound out;
    if (const JsonValue* inclusive = schema.find(inclusive_key))
      out.value = read_number(*inclusive, pointer_append(pointer, inclusive_key));
    if (const JsonValue* exclusive = schema.find(exclusive_key)) {
      const std::string where = pointer_append(pointer, exclusive_key);
      if (exclusive->is_bool()) {  // draft 4: a flag on minimum / maximum
        out.exclusive = exclusive->boolean && out.value.has_value();
      } else if (exclusive->is_number()) {
        const ExactDecimal v = read_number(*exclusive, where);
        const bool tighter =
            !out.value || (lower ? compare(v, *out.value) >= 0 : compare(v, *out.value) <= 0);
        if (tighter) out = Bound{v, true};
      } else {
        document_.fail(where, "must be a number or a boolean");
      }
    }
    return out;
  };
  const Bound lower = bound(true);
  const Bound upper = bound(false);
  // From draft 6 on an integer is any number with a zero fractional part (5.0 is one); draft 4
  // wants it written without a fraction.
  const bool plain_integers = integer && document_.draft() == Draft::k4;

  std::vector<std::pair<ExactDecimal, std::string>> multiples, not_multiples;
  auto collect = [&](const std::string& key,
                     std::vector<std::pair<ExactDecimal, std::string>>& out) {
    const JsonValue* value = schema.find(key);
    if (!value) return;
    const std::string where =
        pointer_append(pointer, internal::is_internal(key) ? "multipleOf" : key);
    for (const JsonValue& m : value->is_array() ? value->items : std::vector<JsonValue>{*value}) {
      const ExactDecimal d = read_number(m, where);
      if (d.negative || d.is_zero()) document_.fail(where, "multipleOf must be a positive number");
      out.emplace_back(d, where);
    }
  };
  collect("multipleOf", multiples);
  collect(internal::kMultiples, multiples);
  collect(internal::kNotMultiples, not_multiples);
  const bool not_integer = schema.find(internal::kNotInteger) != nullptr;
  std::vector<ExactDecimal> excluded;
  if (const JsonValue* not_in = schema.find(internal::kNotIn))
    for (const JsonValue& item : not_in->items)
      if (item.is_number()) excluded.push_back(read_number(item, pointer));
  // multipleOf 1 is integer-ness (any spelling of an integral value).
  std::erase_if(multiples, [&](const auto& m) {
    const bool one = m.first.integer == "1" && m.first.fraction.empty();
    if (one) integer = true;
    return one;
  });
  // An integer is a multiple of p/q (in lowest terms) exactly when p divides it, so under
  // integer-ness multipleOf 0.5 says nothing and multipleOf 1.5 is multipleOf 3.
  if (integer) {
    std::erase_if(multiples, [](auto& m) {
      m.first = integer_numerator(m.first);
      return m.first.integer == "1";
    });
  }
  // Integral values written with an exponent (1e+308) are multiples of every 1/q; the remainder
  // automata below read plain decimals only, so such spellings are added beside them.
  const bool unit_fractions_only =
      !multiples.empty() && std::all_of(multiples.begin(), multiples.end(), [](const auto& m) {
        return integer_numerator(m.first).integer == "1";
      });

  const bool simple =
      multiples.empty() && not_multiples.empty() && !not_integer && excluded.empty();
  const std::string zero_fraction = integer && !plain_integers ? R"((?:\.0+)?)" : "";
  if (simple && !lower.value && !upper.value) {
    if (!integer) return terminal(any_json_number_regex(), "NUMBER");
    if (plain_integers) return terminal(any_json_integer_regex(), "INTEGER");
    // The exponent spellings first: terminals match leftmost-first, and the plain form would
    // stop at the mantissa of 1e+308.
    return terminal(fmt::format("(?:{}|{}{})", integral_exponent_regex(), any_json_integer_regex(),
                                zero_fraction),
                    "INTEGER");
  }
  if (simple) {
    // The compact digit regexes, when the bounds fit them.
    if (integer) {
      std::optional<std::int64_t> lo, hi;
      bool fits = true;
      if (lower.value) {
        lo = small_integer(*lower.value);
        fits = fits && lo;
        if (lo && lower.exclusive) ++*lo;
      }
      if (upper.value) {
        hi = small_integer(*upper.value);
        fits = fits && hi;
        if (hi && upper.exclusive) --*hi;
      }
      if (fits) {
        const std::optional<std::string> regex = integer_range_regex(lo, hi);
        if (!regex) return "";
        return terminal(*regex + zero_fraction, "INTEGER");
      }
    } else {
      std::optional<Decimal> lo, hi;
      bool fits = true;
      if (lower.value) fits = fits && (lo = small_decimal(*lower.value)).has_value();
      if (upper.value) fits = fits && (hi = small_decimal(*upper.value)).has_value();
      if (fits) {
        try {
          const std::optional<std::string> regex =
              number_range_regex(lo, lower.exclusive, hi, upper.exclusive);
          if (!regex) return "";
          return terminal(*regex, "NUMBER");
        } catch (const Error&) {
          // Two fractional bounds inside one integer: the automata below handle it.
        }
      }
    }
  }
  NumberAutomaton language = NumberAutomaton::any();
  if (plain_integers) language = language.intersect(NumberAutomaton::without_fraction());
  if (integer) language = language.intersect(NumberAutomaton::multiple_of({1, 0}));
  if (lower.value)
    language =
        language.intersect(NumberAutomaton::compared(*lower.value, lower.exclusive ? ">" : ">="));
  if (upper.value)
    language =
        language.intersect(NumberAutomaton::compared(*upper.value, upper.exclusive ? "<" : "<="));
  auto scaled = [&](const std::pair<ExactDecimal, std::string>& m) {
    const std::optional<ScaledInteger> s = scaled_integer(m.first);
    if (!s) {
      unenforced(m.second, "multipleOf with more than 18 significant digits is not supported");
      return std::optional<ScaledInteger>{};
    }
    return s;
  };
  try {
    for (const auto& m : multiples)
      if (const auto s = scaled(m)) language = language.intersect(NumberAutomaton::multiple_of(*s));
    for (const auto& m : not_multiples)
      if (const auto s = scaled(m))
        language = language.intersect(NumberAutomaton::multiple_of(*s).complement());
    if (not_integer)
      language = language.intersect(NumberAutomaton::multiple_of({1, 0}).complement());
    for (const ExactDecimal& value : excluded)
      language = language.intersect(NumberAutomaton::compared(value, "==").complement());
  } catch (const Error& e) {
    unenforced(pointer, fmt::format("number constraint: {}", e.what()));
  }
  if (language.empty()) return "";
  // A regex over 64 KiB would cost the lexer's subset construction tenths of a second (the
  // remainder automata of multipleOf 7, 9, 11, 12, 13, 16, ... without bounds get there).
  const std::optional<std::string> regex = language.to_greedy_regex(std::size_t{1} << 16);
  if (!regex) {
    unenforced(multiples.empty() && not_multiples.empty() ? pointer
                                                          : pointer_append(pointer, "multipleOf"),
               "the numbers allowed here need a digit regex over 64 KiB");
    return terminal(any_json_number_regex(), "NUMBER");
  }
  const bool add_exponents = unit_fractions_only && !plain_integers && !lower.value &&
                             !upper.value && not_multiples.empty() && !not_integer &&
                             excluded.empty();
  return terminal(
      add_exponents ? fmt::format("(?:{}|{})", integral_exponent_regex(), *regex) : *regex,
      integer ? "INTEGER" : "NUMBER");
}

}  // namespace glrmask::json_schema::detail
