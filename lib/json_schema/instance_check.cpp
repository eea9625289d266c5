#include "lib/json_schema/instance_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lib/core/error.h"
#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/exact_decimal.h"
#include "lib/json_schema/formats.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/regex.h"

namespace glrmask::json_schema {
namespace {

using Kind = JsonValue::Kind;

std::size_t code_points(const std::string& utf8) {
  std::size_t n = 0;
  for (const unsigned char c : utf8)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// The members and items of one instance that a successful schema evaluated (annotations of
// properties, patternProperties, additionalProperties, prefixItems, items, contains and the
// unevaluated keywords, gathered through the subschemas applied in place), which
// unevaluatedProperties / unevaluatedItems read.
struct Evaluation {
  std::set<std::string> properties;
  bool all_properties = false;
  std::set<std::size_t> items;
  bool all_items = false;

  void unite(const Evaluation& other) {
    properties.insert(other.properties.begin(), other.properties.end());
    all_properties = all_properties || other.all_properties;
    items.insert(other.items.begin(), other.items.end());
    all_items = all_items || other.all_items;
  }
};

class Checker {
 public:
  explicit Checker(const SchemaDocument& document) : document_(document) {}

  // Whether `x` validates; what the schema evaluated is added to `out`.
  bool check(const JsonValue& schema, const JsonValue& x, const std::string& pointer, int depth,
             Evaluation* out = nullptr) {
    if (depth > 200) document_.fail(pointer, "$ref / nesting too deep to evaluate a value");
    if (schema.is_bool()) return schema.boolean;
    if (!schema.is_object()) document_.fail(pointer, "a schema must be an object or a boolean");
    Evaluation evaluation;
    if (const JsonValue* ref = schema.find("$ref")) {
      const std::string target = document_.resolve_ref(*ref, pointer_append(pointer, "$ref"));
      if (!check(document_.at(target), x, target, depth + 1, &evaluation)) return false;
      if (document_.ref_overrides_siblings()) {
        if (out) out->unite(evaluation);
        return true;
      }
    }
    for (const auto& [key, value] : schema.members) {
      if (key == "$ref" || key == "unevaluatedProperties" || key == "unevaluatedItems") continue;
      if (!keyword(key, value, schema, x, pointer_append(pointer, key), depth, evaluation))
        return false;
    }
    // After every other keyword: what none of them evaluated (2019-09 on; before, unknown
    // keywords).
    if (document_.draft() >= Draft::k2019_09) {
      if (const JsonValue* rest = schema.find("unevaluatedProperties"); rest && x.is_object()) {
        for (const auto& [name, member] : x.members)
          if (!evaluation.all_properties && !evaluation.properties.count(name) &&
              !check(*rest, member, pointer_append(pointer, "unevaluatedProperties"), depth + 1))
            return false;
        evaluation.all_properties = true;
      }
      if (const JsonValue* rest = schema.find("unevaluatedItems"); rest && x.is_array()) {
        for (std::size_t i = 0; i < x.items.size(); ++i)
          if (!evaluation.all_items && !evaluation.items.count(i) &&
              !check(*rest, x.items[i], pointer_append(pointer, "unevaluatedItems"), depth + 1))
            return false;
        evaluation.all_items = true;
      }
    }
    if (out) out->unite(evaluation);
    return true;
  }

 private:
  bool is_type(const std::string& name, const JsonValue& x) const {
    if (name == "null") return x.kind == Kind::kNull;
    if (name == "boolean") return x.kind == Kind::kBool;
    if (name == "object") return x.is_object();
    if (name == "array") return x.is_array();
    if (name == "string") return x.is_string();
    if (name == "number") return x.is_number();
    if (name == "integer") {
      if (!x.is_number()) return false;
      if (document_.draft() == Draft::k4)
        return x.number_text.empty() ? x.is_integer
                                     : x.number_text.find_first_of(".eE") == std::string::npos;
      const std::optional<ExactDecimal> d = decimal_of_value(x);
      return d && d->is_integral();
    }
    return false;
  }

  static bool format_holds(const std::string& format, const std::string& text,
                           const std::string& pointer) {
    const std::optional<FormatRegex> regex = format_regex(format);
    if (!regex) return true;  // unknown formats are annotations
    return ecma_search("^(?:" + regex->regex + ")$", text, pointer);
  }

  std::optional<ExactDecimal> number(const JsonValue& value, const std::string& pointer) {
    const std::optional<ExactDecimal> d = decimal_of_value(value);
    if (!d) document_.fail(pointer, "must be a number");
    return d;
  }

  bool keyword(const std::string& key, const JsonValue& value, const JsonValue& schema,
               const JsonValue& x, const std::string& pointer, int depth, Evaluation& evaluation) {
    // Any type.
    if (key == "type") {
      if (value.is_string()) return is_type(value.string, x);
      return std::any_of(value.items.begin(), value.items.end(),
                         [&](const JsonValue& t) { return t.is_string() && is_type(t.string, x); });
    }
    if (key == "enum")
      return std::any_of(value.items.begin(), value.items.end(),
                         [&](const JsonValue& v) { return json_equal(v, x); });
    if (key == "const") return json_equal(value, x);
    if (key == internal::kNotIn)
      return std::none_of(value.items.begin(), value.items.end(),
                          [&](const JsonValue& v) { return json_equal(v, x); });
    if (key == "allOf" || key == internal::kAlso) {
      for (std::size_t i = 0; i < value.items.size(); ++i)
        if (!check(value.items[i], x, pointer_append(pointer, std::to_string(i)), depth + 1,
                   &evaluation))
          return false;
      return true;
    }
    if (key == "anyOf") {
      // Every branch is evaluated: each one that matches adds what it evaluated.
      bool any = false;
      for (std::size_t i = 0; i < value.items.size(); ++i)
        any = check(value.items[i], x, pointer_append(pointer, std::to_string(i)), depth + 1,
                    &evaluation) ||
              any;
      return any;
    }
    if (key == "oneOf") {
      std::size_t matched = 0;
      Evaluation one;
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        Evaluation branch;
        if (check(value.items[i], x, pointer_append(pointer, std::to_string(i)), depth + 1,
                  &branch)) {
          ++matched;
          one = branch;
        }
      }
      if (matched == 1) evaluation.unite(one);
      return matched == 1;
    }
    if (key == "not") return !check(value, x, pointer, depth + 1);
    if (key == "if") {
      const std::string base = pointer.substr(0, pointer.rfind('/'));
      if (check(value, x, pointer, depth + 1, &evaluation)) {
        const JsonValue* then = schema.find("then");
        return !then || check(*then, x, pointer_append(base, "then"), depth + 1, &evaluation);
      }
      const JsonValue* otherwise = schema.find("else");
      return !otherwise ||
             check(*otherwise, x, pointer_append(base, "else"), depth + 1, &evaluation);
    }
    if (key == "dependencies" || key == "dependentRequired" || key == "dependentSchemas") {
      if (!x.is_object()) return true;
      for (const auto& [name, dependency] : value.members) {
        if (!x.find(name)) continue;
        if (dependency.is_array()) {
          for (const JsonValue& other : dependency.items)
            if (other.is_string() && !x.find(other.string)) return false;
        } else if (!check(dependency, x, pointer_append(pointer, name), depth + 1, &evaluation)) {
          return false;
        }
      }
      return true;
    }
    if (key == "$dynamicRef" || key == "$recursiveRef")
      document_.fail(pointer, fmt::format("\"{}\" cannot be evaluated on a value here", key));
    if (x.is_string()) return string_keyword(key, value, x.string, pointer);
    if (x.is_number()) return number_keyword(key, value, schema, x, pointer);
    if (x.is_object()) {
      annotate_members(key, value, x, pointer, evaluation);
      return object_keyword(key, value, schema, x, pointer, depth);
    }
    if (x.is_array()) {
      annotate_items(key, value, schema, x, pointer, depth, evaluation);
      return array_keyword(key, value, schema, x, pointer, depth);
    }
    return true;
  }

  // The members a keyword evaluates (recorded before it is checked: when it fails, the schema
  // fails and its annotations are dropped anyway).
  void annotate_members(const std::string& key, const JsonValue& value, const JsonValue& x,
                        const std::string& pointer, Evaluation& evaluation) {
    auto patterns = [&](const JsonValue* list) {
      if (!list) return;
      for (const auto& [name, member] : x.members)
        for (const auto& [pattern_text, pattern_schema] : list->members)
          if (ecma_search(pattern_text, name, document_.where(pointer)))
            evaluation.properties.insert(name);
    };
    if (key == "properties") {
      for (const auto& [name, member] : x.members)
        if (value.find(name)) evaluation.properties.insert(name);
    } else if (key == "patternProperties") {
      patterns(&value);
    } else if (key == "additionalProperties") {
      evaluation.all_properties = true;
    } else if (key == internal::kKeyParts) {
      for (const JsonValue& part : value.items) {
        patterns(part.find("patternProperties"));
        if (part.find("additionalProperties")) evaluation.all_properties = true;
      }
    }
  }

  // The items a keyword evaluates, by the draft's annotation keywords (prefixItems and contains
  // from 2020-12; an items array and additionalItems before).
  void annotate_items(const std::string& key, const JsonValue& value, const JsonValue& schema,
                      const JsonValue& x, const std::string& pointer, int depth,
                      Evaluation& evaluation) {
    const bool modern = document_.draft() >= Draft::k2020_12;
    const JsonValue* prefix = modern ? schema.find("prefixItems") : nullptr;
    auto first = [&](std::size_t n) {
      for (std::size_t i = 0; i < n && i < x.items.size(); ++i) evaluation.items.insert(i);
    };
    if (key == "prefixItems" && modern && value.is_array()) {
      first(value.items.size());
    } else if (key == "items") {
      if (value.is_array() && !prefix)
        first(value.items.size());
      else
        evaluation.all_items = true;
    } else if (key == "additionalItems") {
      if (const JsonValue* items = schema.find("items"); items && items->is_array() && !prefix)
        evaluation.all_items = true;
    } else if (key == "contains" && modern) {
      for (std::size_t i = 0; i < x.items.size(); ++i)
        if (check(value, x.items[i], pointer, depth + 1)) evaluation.items.insert(i);
    }
  }

  bool string_keyword(const std::string& key, const JsonValue& value, const std::string& s,
                      const std::string& pointer) {
    if (key == "minLength") return static_cast<double>(code_points(s)) >= value.number;
    if (key == "maxLength") return static_cast<double>(code_points(s)) <= value.number;
    if (key == "pattern") return ecma_search(value.string, s, document_.where(pointer));
    if (key == "format") return !value.is_string() || format_holds(value.string, s, pointer);
    if (key == internal::kPatterns || key == internal::kNotPatterns) {
      const bool want = key == internal::kPatterns;
      for (const JsonValue& p : value.items)
        if (ecma_search(p.string, s, document_.where(pointer)) != want) return false;
      return true;
    }
    if (key == internal::kFormats || key == internal::kNotFormats) {
      const bool want = key == internal::kFormats;
      for (const JsonValue& f : value.items)
        if (format_regex(f.string) && format_holds(f.string, s, pointer) != want) return false;
      return true;
    }
    return true;
  }

  bool number_keyword(const std::string& key, const JsonValue& value, const JsonValue& schema,
                      const JsonValue& x, const std::string& pointer) {
    const bool bound = key == "minimum" || key == "maximum" || key == "exclusiveMinimum" ||
                       key == "exclusiveMaximum";
    if (bound) {
      if (value.is_bool()) return true;  // draft 4's flag, read with minimum / maximum
      const ExactDecimal v = *number(x, pointer);
      const ExactDecimal b = *number(value, pointer);
      const int c = compare(v, b);
      bool exclusive = key.starts_with("exclusive");
      if (!exclusive) {
        const JsonValue* flag =
            schema.find(key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum");
        exclusive = flag && flag->is_bool() && flag->boolean;
      }
      const bool lower = key == "minimum" || key == "exclusiveMinimum";
      return lower ? (exclusive ? c > 0 : c >= 0) : (exclusive ? c < 0 : c <= 0);
    }
    if (key == "multipleOf" || key == internal::kMultiples || key == internal::kNotMultiples) {
      const ExactDecimal v = *number(x, pointer);
      std::vector<JsonValue> multiples;
      if (key == "multipleOf")
        multiples = {value};
      else
        multiples = value.items;
      for (const JsonValue& m : multiples) {
        const std::optional<bool> divides = is_multiple(v, *number(m, pointer));
        if (!divides) document_.fail(pointer, "multipleOf with more than 18 significant digits");
        if (*divides != (key != internal::kNotMultiples)) return false;
      }
      return true;
    }
    if (key == internal::kNotInteger) return !number(x, pointer)->is_integral();
    return true;
  }

  bool object_keyword(const std::string& key, const JsonValue& value, const JsonValue& schema,
                      const JsonValue& x, const std::string& pointer, int depth) {
    if (key == "required") {
      for (const JsonValue& name : value.items)
        if (name.is_string() && !x.find(name.string)) return false;
      return true;
    }
    if (key == internal::kForbidden) {
      for (const JsonValue& name : value.items)
        if (x.find(name.string)) return false;
      return true;
    }
    if (key == internal::kSomeMember) {
      for (const JsonValue& witness : value.items) {
        bool found = false;
        for (const auto& [name, member] : x.members) {
          bool in_keys = true;
          if (const JsonValue* names = witness.find("names"))
            for (const JsonValue& n : names->items) in_keys = in_keys && n.string != name;
          if (const JsonValue* patterns = witness.find("patterns"))
            for (const JsonValue& p : patterns->items)
              in_keys = in_keys && !ecma_search(p.string, name, document_.where(pointer));
          if (const JsonValue* match = witness.find("matches"))
            in_keys = in_keys && ecma_search(match->string, name, document_.where(pointer));
          const JsonValue* witness_value = witness.find("value");
          if (in_keys && (!witness_value || check(*witness_value, member, pointer, depth + 1))) {
            found = true;
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    if (key == "minProperties") return static_cast<double>(x.members.size()) >= value.number;
    if (key == "maxProperties") return static_cast<double>(x.members.size()) <= value.number;
    if (key == "properties") {
      for (const auto& [name, member] : x.members)
        if (const JsonValue* property = value.find(name))
          if (!check(*property, member, pointer_append(pointer, name), depth + 1)) return false;
      return true;
    }
    if (key == "propertyNames") {
      for (const auto& [name, member] : x.members)
        if (!check(value, make_string(name), pointer, depth + 1)) return false;
      return true;
    }
    if (key == "patternProperties" || key == "additionalProperties" || key == internal::kKeyParts) {
      std::vector<const JsonValue*> parts;
      if (key == internal::kKeyParts) {
        for (const JsonValue& part : value.items) parts.push_back(&part);
      } else {
        if (key == "additionalProperties" && schema.find("patternProperties"))
          return true;  // evaluated with patternProperties
        parts.push_back(&schema);
      }
      const JsonValue* properties = schema.find("properties");
      for (const JsonValue* part : parts) {
        const JsonValue* patterns = part->find("patternProperties");
        const JsonValue* additional = part->find("additionalProperties");
        for (const auto& [name, member] : x.members) {
          bool matched = false;
          if (patterns) {
            for (const auto& [pattern_text, pattern_schema] : patterns->members) {
              if (!ecma_search(pattern_text, name, document_.where(pointer))) continue;
              matched = true;
              if (!check(pattern_schema, member, pointer, depth + 1)) return false;
            }
          }
          const bool declared = properties && properties->find(name);
          if (!matched && !declared && additional &&
              !check(*additional, member, pointer, depth + 1))
            return false;
        }
      }
      return true;
    }
    return true;
  }

  bool array_keyword(const std::string& key, const JsonValue& value, const JsonValue& schema,
                     const JsonValue& x, const std::string& pointer, int depth) {
    const auto& items = x.items;
    if (key == "minItems") return static_cast<double>(items.size()) >= value.number;
    if (key == "maxItems") return static_cast<double>(items.size()) <= value.number;
    if (key == "uniqueItems") {
      if (!value.is_bool() || !value.boolean) return true;
      for (std::size_t i = 0; i < items.size(); ++i)
        for (std::size_t j = i + 1; j < items.size(); ++j)
          if (json_equal(items[i], items[j])) return false;
      return true;
    }
    if (key == "prefixItems" || (key == "items" && value.is_array())) {
      for (std::size_t i = 0; i < items.size() && i < value.items.size(); ++i)
        if (!check(value.items[i], items[i], pointer_append(pointer, std::to_string(i)), depth + 1))
          return false;
      return true;
    }
    if (key == "items" || key == "additionalItems") {
      std::size_t first = 0;
      if (key == "items") {
        if (const JsonValue* prefix = schema.find("prefixItems")) first = prefix->items.size();
      } else {
        const JsonValue* tuple = schema.find("items");
        if (!tuple || !tuple->is_array()) return true;  // additionalItems needs an items array
        first = tuple->items.size();
      }
      for (std::size_t i = first; i < items.size(); ++i)
        if (!check(value, items[i], pointer, depth + 1)) return false;
      return true;
    }
    if (key == internal::kCountedContains) {
      for (const JsonValue& entry : value.items) {
        std::size_t count = 0;
        for (const JsonValue& item : items)
          count += check(*entry.find("contains"), item, pointer, depth + 1);
        const JsonValue* min = entry.find("minContains");
        const JsonValue* max = entry.find("maxContains");
        if (static_cast<double>(count) < (min ? min->number : 1)) return false;
        if (max && static_cast<double>(count) > max->number) return false;
      }
      return true;
    }
    if (key == internal::kContainsFrom) {
      for (const JsonValue& entry : value.items) {
        bool found = false;
        for (std::size_t i = static_cast<std::size_t>(entry.find("from")->number);
             i < items.size() && !found; ++i)
          found = check(*entry.find("schema"), items[i], pointer, depth + 1);
        if (!found) return false;
      }
      return true;
    }
    if (key == "contains" || key == internal::kContains) {
      std::vector<JsonValue> wanted =
          key == "contains" ? std::vector<JsonValue>{value} : value.items;
      for (const JsonValue& c : wanted) {
        std::size_t count = 0;
        for (const JsonValue& item : items) count += check(c, item, pointer, depth + 1);
        double low = 1;
        std::optional<double> high;
        if (key == "contains") {
          if (const JsonValue* min = schema.find("minContains")) low = min->number;
          if (const JsonValue* max = schema.find("maxContains")) high = max->number;
        }
        if (static_cast<double>(count) < low) return false;
        if (high && static_cast<double>(count) > *high) return false;
      }
      return true;
    }
    return true;
  }

  const SchemaDocument& document_;
};

}  // namespace

bool json_equal(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.boolean == b.boolean;
    case Kind::kNumber: {
      const std::optional<ExactDecimal> x = decimal_of_value(a);
      const std::optional<ExactDecimal> y = decimal_of_value(b);
      if (x && y) return compare(*x, *y) == 0;
      return a.number == b.number;
    }
    case Kind::kString:
      return a.string == b.string;
    case Kind::kArray:
      return a.items.size() == b.items.size() &&
             std::equal(a.items.begin(), a.items.end(), b.items.begin(), json_equal);
    case Kind::kObject:
      if (a.members.size() != b.members.size()) return false;
      for (const auto& [name, member] : a.members) {
        const JsonValue* other = b.find(name);
        if (!other || !json_equal(member, *other)) return false;
      }
      return true;
  }
  return false;
}

bool instance_validates(const SchemaDocument& document, const JsonValue& schema,
                        const JsonValue& instance, const std::string& pointer) {
  return Checker(document).check(schema, instance, pointer, 0);
}

}  // namespace glrmask::json_schema
