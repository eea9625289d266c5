// enum and const: one terminal per string (every JSON spelling) or number, arrays and objects
// as rule sequences. The other keywords of the schema still apply: each listed value is kept
// only when it validates against them (instance_check.h), whatever they are.
#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/json_schema/exact_decimal.h"
#include "lib/json_schema/instance_check.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

// Every plain spelling of one number: enum and const compare values, so 1 also matches 1.0 and
// 1.50 matches 1.5; 0 also matches -0. Exponents are not accepted (as for bounded numbers). With
// `plain_integers` an integral value is spelled without a fraction (draft 4's integers).
std::string number_constant_regex(const JsonValue& item, bool plain_integers) {
  const std::optional<ExactDecimal> decimal = decimal_of_value(item);
  if (!decimal) return escape_literal(to_json_text(item));
  const std::string zero_fraction = plain_integers ? "" : R"((?:\.0+)?)";
  if (decimal->is_zero()) return "-?0" + zero_fraction;
  const std::string text = decimal->text();
  if (decimal->is_integral()) return escape_literal(text) + zero_fraction;
  return escape_literal(text) + "0*";
}

// `value` with every integral number inside it written with a fraction ("1" as "1.0").
JsonValue with_fractions(const JsonValue& value) {
  JsonValue out = value;
  if (out.is_number()) {
    const std::optional<ExactDecimal> decimal = decimal_of_value(out);
    if (decimal && decimal->is_integral()) {
      out.number_text = decimal->text() + ".0";
      out.is_integer = false;
    }
  }
  for (JsonValue& item : out.items) item = with_fractions(item);
  for (auto& member : out.members) member.second = with_fractions(member.second);
  return out;
}

bool has_integral_number(const JsonValue& value) {
  if (value.is_number()) {
    const std::optional<ExactDecimal> decimal = decimal_of_value(value);
    return decimal && decimal->is_integral();
  }
  for (const JsonValue& item : value.items)
    if (has_integral_number(item)) return true;
  for (const auto& member : value.members)
    if (has_integral_number(member.second)) return true;
  return false;
}

}  // namespace

std::string SchemaCompiler::constants(const JsonValue& schema, const std::string& pointer,
                                      unsigned types) {
  std::vector<JsonValue> values;
  std::vector<std::string> where;  // each value's pointer, for warnings about it
  if (const JsonValue* constant = schema.find("const")) {
    values.push_back(*constant);
    where.push_back(pointer_append(pointer, "const"));
    if (const JsonValue* list = schema.find("enum")) {
      if (!list->is_array())
        document_.fail(pointer_append(pointer, "enum"), "enum must be an array");
      if (std::none_of(list->items.begin(), list->items.end(),
                       [&](const JsonValue& v) { return json_equal(v, *constant); }))
        values.clear();
    }
  } else {
    const JsonValue& list = *schema.find("enum");
    if (!list.is_array()) document_.fail(pointer_append(pointer, "enum"), "enum must be an array");
    values = list.items;
    for (std::size_t i = 0; i < values.size(); ++i)
      where.push_back(pointer_append(pointer_append(pointer, "enum"), std::to_string(i)));
  }
  // The other keywords of the schema decide which listed values remain.
  JsonValue rest = schema;
  std::erase_if(rest.members, [](const auto& member) {
    return member.first == "enum" || member.first == "const" || member.first == "type";
  });
  std::vector<std::string> symbols;
  std::vector<JsonValue> kept;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const JsonValue& item = values[i];
    unsigned bits = value_type_bits(item);
    if ((bits & types) == 0) continue;
    if (!instance_validates(document_, rest, item, pointer)) continue;
    if (std::any_of(kept.begin(), kept.end(),
                    [&](const JsonValue& k) { return json_equal(k, item); }))
      continue;
    kept.push_back(item);
    // Draft 4: the numbers inside an array or object constant take a zero fraction only where
    // the spelling with fractions validates too (an `integer` inside refuses "1.0"; the schema of
    // a nested value is not at hand while it is spelled, the whole value is).
    const bool nested_plain = document_.draft() == Draft::k4 && has_integral_number(item) &&
                              (item.is_array() || item.is_object()) &&
                              !instance_validates(document_, rest, with_fractions(item), pointer);
    symbols.push_back(literal(item, where[i], plain_integers(types), nested_plain));
  }
  return alternatives("enum", symbols);
}

bool SchemaCompiler::plain_integers(unsigned types) const {
  return document_.draft() == Draft::k4 && (types & kNumber) == 0;
}

std::string SchemaCompiler::literal(const JsonValue& item, const std::string& pointer, bool plain,
                                    bool nested_plain) {
  switch (item.kind) {
    case JsonValue::Kind::kNull:
      return null_symbol();
    case JsonValue::Kind::kBool:
      return item.boolean ? true_symbol() : false_symbol();
    case JsonValue::Kind::kNumber:
      return terminal(number_constant_regex(item, plain), "CONST_NUMBER");
    case JsonValue::Kind::kString:
      return terminal(json_string_literal_regex(item.string, options_.string_spellings),
                      "CONST_STRING");
    case JsonValue::Kind::kArray: {
      const std::string name = nonterminal("const_array");
      std::vector<std::string> rhs = {lsqb()};
      for (std::size_t i = 0; i < item.items.size(); ++i) {
        if (i) rhs.push_back(comma());
        rhs.push_back(literal(item.items[i], pointer_append(pointer, std::to_string(i)),
                              nested_plain, nested_plain));
      }
      rhs.push_back(rsqb());
      rule(name, rhs);
      return name;
    }
    case JsonValue::Kind::kObject: {
      const std::size_t n = item.members.size();
      if (options_.property_order == PropertyOrder::kAny && n > 1 && n <= 8) {
        // Any order of the constant's members, each exactly once: one state per subset seen.
        std::vector<std::string> keys, values;
        for (const auto& [key, member] : item.members) {
          keys.push_back(
              terminal(json_string_literal_regex(key, options_.string_spellings), "KEY"));
          values.push_back(
              literal(member, pointer_append(pointer, key), nested_plain, nested_plain));
        }
        std::vector<std::string> states(std::size_t{1} << n);
        for (std::size_t seen = states.size(); seen-- > 0;) {
          states[seen] = nonterminal("const_members");
          if (seen + 1 == states.size()) {
            rule(states[seen], {rbrace()});
            continue;
          }
          for (std::size_t i = 0; i < n; ++i) {
            if (seen >> i & 1) continue;
            std::vector<std::string> rhs;
            if (seen != 0) rhs.push_back(comma());
            rhs.insert(rhs.end(),
                       {keys[i], colon(), values[i], states[seen | (std::size_t{1} << i)]});
            rule(states[seen], rhs);
          }
        }
        const std::string name = nonterminal("const_object");
        rule(name, {lbrace(), states[0]});
        return name;
      }
      if (options_.property_order == PropertyOrder::kAny && n > 8)
        warn(pointer, "an object constant with more than 8 members keeps its member order");
      const std::string name = nonterminal("const_object");
      std::vector<std::string> rhs = {lbrace()};
      for (std::size_t i = 0; i < item.members.size(); ++i) {
        if (i) rhs.push_back(comma());
        rhs.push_back(terminal(
            json_string_literal_regex(item.members[i].first, options_.string_spellings), "KEY"));
        rhs.push_back(colon());
        rhs.push_back(literal(item.members[i].second,
                              pointer_append(pointer, item.members[i].first), nested_plain,
                              nested_plain));
      }
      rhs.push_back(rbrace());
      rule(name, rhs);
      return name;
    }
  }
  return never();
}

}  // namespace glrmask::json_schema::detail
