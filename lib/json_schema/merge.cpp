#include "lib/json_schema/merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace glrmask::json_schema {
namespace {

constexpr std::array kValidationKeywords = {
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "not",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
};

// A stack guard, not a semantic limit: $ref and allOf merged into one place nest at most this
// deep (a chain of distinct $refs is as long as the document allows; a loop is found by name).
constexpr int kMaxDepth = 1000;

struct Part {
  JsonValue schema;
  std::string pointer;
};

JsonValue make_bool(bool value) {
  JsonValue out;
  out.kind = JsonValue::Kind::kBool;
  out.boolean = value;
  return out;
}

JsonValue make_all_of(JsonValue a, JsonValue b) {
  JsonValue list;
  list.kind = JsonValue::Kind::kArray;
  list.items = {std::move(a), std::move(b)};
  JsonValue out;
  out.kind = JsonValue::Kind::kObject;
  out.members.emplace_back("allOf", std::move(list));
  return out;
}

JsonValue* find_member(JsonValue& object, std::string_view key) {
  for (auto& [name, member] : object.members)
    if (name == key) return &member;
  return nullptr;
}

// `refs` holds the $ref targets being merged on the current path: meeting one again is a loop
// (the schema would be its own conjunct), refused with the chain.
void collect(const SchemaDocument& document, const JsonValue& schema, const std::string& pointer,
             int depth, std::vector<Part>& parts, std::vector<std::string>& refs) {
  if (depth > kMaxDepth)
    document.fail(pointer, fmt::format("$ref / allOf nesting is deeper than {}", kMaxDepth));
  if (schema.is_bool()) {
    if (!schema.boolean) parts.push_back({schema, pointer});
    return;
  }
  if (!schema.is_object()) document.fail(pointer, "a schema must be an object or a boolean");
  JsonValue rest;
  rest.kind = JsonValue::Kind::kObject;
  for (const auto& [key, value] : schema.members)
    if (key != "$ref" && key != "allOf" && is_validation_keyword(key))
      rest.members.emplace_back(key, value);
  if (!rest.members.empty()) parts.push_back({std::move(rest), pointer});
  if (const JsonValue* ref = schema.find("$ref")) {
    const std::string target = document.resolve_ref(*ref, pointer_append(pointer, "$ref"));
    if (std::find(refs.begin(), refs.end(), target) != refs.end()) {
      std::string chain;
      for (const std::string& step : refs) chain += "#" + step + " -> ";
      document.fail(pointer_append(pointer, "$ref"),
                    fmt::format("$ref loops with no schema in between: {}#{}", chain, target));
    }
    refs.push_back(target);
    collect(document, document.at(target), target, depth + 1, parts, refs);
    refs.pop_back();
  }
  if (const JsonValue* all_of = schema.find("allOf")) {
    const std::string where = pointer_append(pointer, "allOf");
    if (!all_of->is_array() || all_of->items.empty())
      document.fail(where, "allOf must be a non-empty array of schemas");
    for (std::size_t i = 0; i < all_of->items.size(); ++i)
      collect(document, all_of->items[i], pointer_append(where, std::to_string(i)), depth + 1,
              parts, refs);
  }
}

std::vector<std::string> type_names(const JsonValue& type) {
  std::vector<std::string> out;
  if (type.is_string()) out.push_back(type.string);
  for (const JsonValue& item : type.items)
    if (item.is_string()) out.push_back(item.string);
  return out;
}

JsonValue intersect_types(const JsonValue& a, const JsonValue& b) {
  const std::vector<std::string> left = type_names(a);
  const std::vector<std::string> right = type_names(b);
  auto has = [](const std::vector<std::string>& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  JsonValue out;
  out.kind = JsonValue::Kind::kArray;
  for (const std::string& name : left) {
    bool keep = has(right, name) || (name == "integer" && has(right, "number"));
    if (keep) {
      JsonValue item;
      item.kind = JsonValue::Kind::kString;
      item.string = name;
      out.items.push_back(item);
    }
  }
  if (has(left, "number") && has(right, "integer") && !has(left, "integer")) {
    JsonValue item;
    item.kind = JsonValue::Kind::kString;
    item.string = "integer";
    out.items.push_back(item);
  }
  return out;
}

bool is_lower_bound(std::string_view key) {
  return key == "minLength" || key == "minItems" || key == "minProperties" || key == "minimum";
}
bool is_upper_bound(std::string_view key) {
  return key == "maxLength" || key == "maxItems" || key == "maxProperties" || key == "maximum";
}

// Combines one keyword present in two parts. Returns false when the parts contradict each other
// (the conjunction is empty).
bool combine(const SchemaDocument& document, const std::string& pointer, const std::string& key,
             JsonValue& into, const JsonValue& value) {
  if (into == value) return true;
  if (key == "type") {
    into = intersect_types(into, value);
    return !into.items.empty();
  }
  if (key == "required") {
    for (const JsonValue& name : value.items)
      if (std::find(into.items.begin(), into.items.end(), name) == into.items.end())
        into.items.push_back(name);
    return true;
  }
  if (key == "properties") {
    for (const auto& [name, schema] : value.members) {
      if (JsonValue* existing = find_member(into, name))
        *existing = make_all_of(*existing, schema);
      else
        into.members.emplace_back(name, schema);
    }
    return true;
  }
  if (key == "additionalProperties" || key == "items" || key == "additionalItems" ||
      key == "propertyNames") {
    if (into.is_array() || value.is_array()) {
      document.fail(pointer_append(pointer, key),
                    "allOf: array-form items that differ cannot be combined");
    }
    into = make_all_of(into, value);
    return true;
  }
  if ((is_lower_bound(key) || is_upper_bound(key)) && into.is_number() && value.is_number()) {
    const bool take = is_lower_bound(key) ? value.number > into.number : value.number < into.number;
    if (take) into = value;
    return true;
  }
  if (key == "enum" && into.is_array() && value.is_array()) {
    std::vector<JsonValue> kept;
    for (const JsonValue& item : into.items)
      if (std::find(value.items.begin(), value.items.end(), item) != value.items.end())
        kept.push_back(item);
    into.items = std::move(kept);
    return !into.items.empty();
  }
  if (key == "const") return false;  // two different constants
  document.fail(pointer_append(pointer, key),
                fmt::format("allOf: different values of \"{}\" cannot be combined", key));
}

}  // namespace

bool is_validation_keyword(std::string_view keyword) {
  return std::find(kValidationKeywords.begin(), kValidationKeywords.end(), keyword) !=
         kValidationKeywords.end();
}

JsonValue flatten_conjunction(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer) {
  std::vector<Part> parts;
  std::vector<std::string> refs;
  collect(document, schema, pointer, 0, parts, refs);
  JsonValue merged;
  merged.kind = JsonValue::Kind::kObject;
  for (const Part& part : parts)
    if (part.schema.is_bool()) return make_bool(false);
  if (parts.size() == 1) return parts[0].schema;
  bool has_alternatives = false;
  for (const Part& part : parts) {
    if (part.schema.find("anyOf") || part.schema.find("oneOf")) {
      if (has_alternatives)
        document.fail(part.pointer,
                      "allOf: several anyOf / oneOf in one conjunction are not supported");
      has_alternatives = true;
    }
    for (const auto& [key, value] : part.schema.members) {
      if (JsonValue* existing = find_member(merged, key)) {
        if (!combine(document, part.pointer, key, *existing, value)) return make_bool(false);
      } else {
        merged.members.emplace_back(key, value);
      }
    }
  }
  // A part's additionalProperties also governs the properties the other parts declare.
  JsonValue* properties = find_member(merged, "properties");
  for (const Part& part : parts) {
    const JsonValue* additional = part.schema.find("additionalProperties");
    if (!additional || (additional->is_bool() && additional->boolean) || !properties) continue;
    if (part.schema.find("patternProperties"))
      document.fail(part.pointer,
                    "allOf: patternProperties with additionalProperties cannot be combined");
    const JsonValue* own = part.schema.find("properties");
    for (auto& [name, value] : properties->members)
      if (!own || !own->find(name)) value = make_all_of(value, *additional);
  }
  return merged;
}

}  // namespace glrmask::json_schema
