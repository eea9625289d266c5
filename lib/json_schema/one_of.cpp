// oneOf: proofs that two branches cannot both hold. Where a proof exists, "exactly one" is plain
// alternation; elsewhere the compiler conjoins each branch with the complements of the branches
// it may overlap (compiler.cpp, take_combinator), which needs those complements to be exact.
#include <algorithm>

#include "lib/json_schema/exact_decimal.h"
#include "lib/json_schema/formats.h"
#include "lib/json_schema/instance_check.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

// The constants a schema allows, when it is an enum or const.
std::optional<std::vector<JsonValue>> constants_of(const JsonValue& schema) {
  if (!schema.is_object()) return std::nullopt;
  if (const JsonValue* constant = schema.find("const")) return std::vector<JsonValue>{*constant};
  if (const JsonValue* values = schema.find("enum"); values && values->is_array())
    return values->items;
  return std::nullopt;
}

bool disjoint_constants(const JsonValue& a, const JsonValue& b) {
  const auto left = constants_of(a);
  const auto right = constants_of(b);
  if (!left || !right) return false;
  for (const JsonValue& x : *left)
    for (const JsonValue& y : *right)
      if (json_equal(x, y)) return false;
  return true;
}

bool requires_name(const JsonValue& schema, const std::string& name) {
  const JsonValue* required = schema.find("required");
  if (!required) return false;
  return std::any_of(required->items.begin(), required->items.end(), [&](const JsonValue& item) {
    return item.is_string() && item.string == name;
  });
}

bool forbids_name(const JsonValue& schema, const std::string& name) {
  const JsonValue* forbidden = schema.find(internal::kForbidden);
  if (!forbidden) return false;
  return std::any_of(forbidden->items.begin(), forbidden->items.end(),
                     [&](const JsonValue& item) { return item.string == name; });
}

// Whether the closed ranges [min_key, max_key] of two schemas cannot meet (a missing bound is
// open on that side). Exclusive bounds only make ranges smaller, so ignoring them is safe.
bool disjoint_ranges(const JsonValue& a, const JsonValue& b, const char* min_key,
                     const char* max_key) {
  auto bound = [](const JsonValue& schema, const char* key) -> std::optional<ExactDecimal> {
    const JsonValue* value = schema.find(key);
    if (value && value->is_number()) return decimal_of_value(*value);
    return std::nullopt;
  };
  const auto a_max = bound(a, max_key);
  const auto b_max = bound(b, max_key);
  const auto a_min = bound(a, min_key);
  const auto b_min = bound(b, min_key);
  return (a_max && b_min && compare(*a_max, *b_min) < 0) ||
         (b_max && a_min && compare(*b_max, *a_min) < 0);
}

// The lengths a string schema allows, [min, max] (max < 0: unbounded): minLength / maxLength
// narrowed by the formats it asserts. A format contributes the lengths every string of it has
// under any reading, not those of this compiler's subset regexes (the proof must hold for the
// other branch's real format): exact formats their regex's range; an email holds "@", a uri a
// scheme and ":", a hostname a character; a time is at least "hh:mm:ssZ", a date-time a date,
// "T" and a time.
std::pair<double, double> string_lengths(const JsonValue& schema) {
  double min = 0, max = -1;
  if (const JsonValue* v = schema.find("minLength"); v && v->is_number()) min = v->number;
  if (const JsonValue* v = schema.find("maxLength"); v && v->is_number()) max = v->number;
  auto narrow = [&](const JsonValue& format) {
    if (!format.is_string()) return;
    double floor = 0, ceiling = -1;
    if (format_regex_is_exact(format.string)) {
      const std::optional<FormatRegex> regex = format_regex(format.string);
      floor = static_cast<double>(regex->min_length);
      if (regex->max_length) ceiling = static_cast<double>(*regex->max_length);
    } else if (format.string == "email" || format.string == "hostname") {
      floor = 1;
    } else if (format.string == "uri") {
      floor = 2;
    } else if (format.string == "time") {
      floor = 9;
    } else if (format.string == "date-time") {
      floor = 20;
    }
    min = std::max(min, floor);
    if (ceiling >= 0) max = max < 0 ? ceiling : std::min(max, ceiling);
  };
  if (const JsonValue* format = schema.find("format")) narrow(*format);
  if (const JsonValue* formats = schema.find(internal::kFormats))
    for (const JsonValue& format : formats->items) narrow(format);
  return {min, max};
}

bool disjoint_string_lengths(const JsonValue& a, const JsonValue& b) {
  const auto [a_min, a_max] = string_lengths(a);
  const auto [b_min, b_max] = string_lengths(b);
  return (a_max >= 0 && a_max < b_min) || (b_max >= 0 && b_max < a_min);
}

}  // namespace

// Objects that cannot both hold: a property one requires and the other forbids (by
// additionalProperties false without patterns, or `not required`), or a property both require
// whose schemas are disjoint.
bool SchemaCompiler::disjoint_objects(const JsonValue& a, const JsonValue& b) {
  for (int side = 0; side < 2; ++side) {
    const JsonValue& x = side ? b : a;
    const JsonValue& y = side ? a : b;
    const JsonValue* required = x.find("required");
    if (!required) continue;
    for (const JsonValue& item : required->items) {
      if (!item.is_string()) continue;
      if (forbids_name(y, item.string)) return true;
      const JsonValue* y_additional = y.find("additionalProperties");
      const JsonValue* y_properties = y.find("properties");
      const JsonValue* y_property = y_properties ? y_properties->find(item.string) : nullptr;
      if (!y_property && y_additional && y_additional->is_bool() && !y_additional->boolean &&
          !y.find("patternProperties") && !y.find(internal::kKeyParts))
        return true;
      const JsonValue* x_properties = x.find("properties");
      const JsonValue* x_property = x_properties ? x_properties->find(item.string) : nullptr;
      if (x_property && y_property && requires_name(y, item.string)) {
        const JsonValue fx = flatten_conjunction(document_, *x_property, "");
        const JsonValue fy = flatten_conjunction(document_, *y_property, "");
        if (provably_disjoint(fx, fy)) return true;
      }
    }
  }
  return false;
}

bool SchemaCompiler::provably_disjoint(const JsonValue& a, const JsonValue& b) {
  if ((a.is_bool() && !a.boolean) || (b.is_bool() && !b.boolean)) return true;
  if (a.is_bool() || b.is_bool()) return false;
  // Combinators left at the top make the schemas' languages unions: no proof here.
  for (const JsonValue* s : {&a, &b})
    for (const auto& [key, value] : s->members)
      if (is_combinator_keyword(key)) return false;
  const unsigned common = schema_types(a) & schema_types(b);
  if (common == 0 || disjoint_constants(a, b)) return true;
  // One side's constants all fail the other side (enum beside a bound, say).
  for (int side = 0; side < 2; ++side) {
    const JsonValue& x = side ? b : a;
    const JsonValue& y = side ? a : b;
    if (const auto values = constants_of(x)) {
      bool any = false;
      for (const JsonValue& value : *values) {
        try {
          any = any || instance_validates(document_, y, value, "");
        } catch (const Error&) {
          any = true;
        }
      }
      if (!any) return true;
    }
  }
  if ((common & ~static_cast<unsigned>(kObject)) == 0 && disjoint_objects(a, b)) return true;
  if (common == kString && disjoint_string_lengths(a, b)) return true;
  if ((common & ~static_cast<unsigned>(kNumber | kInteger)) == 0 &&
      disjoint_ranges(a, b, "minimum", "maximum"))
    return true;
  if (common == kArray && disjoint_ranges(a, b, "minItems", "maxItems")) return true;
  return false;
}

}  // namespace glrmask::json_schema::detail
