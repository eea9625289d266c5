// `not`: the complement of a schema, written as a schema (docs/json_schema.md, "not").
//
// A value fails a schema object when its type is not allowed, or when some keyword that applies
// to its type fails. So the complement of {type: T, k1, k2, ...} is the anyOf of {type: not T}
// and, for each keyword k, {type: k's type, the complement of k}. The complement of each keyword
// is another keyword (minLength n -> maxLength n-1, minimum -> exclusiveMaximum, required [a] ->
// a forbidden, properties {p: S} -> p present with not S, items S -> some item with not S, an
// enum -> none of the values, a pattern -> matching none...), so the result is exact. Nested
// schemas stay wrapped as {"not": S} and are complemented only when the compiler reaches them,
// which keeps recursive schemas finite. Combinators: not (A and (B or C)) = not A, or (not B and
// not C); not not X = X; not (if I then T
// else E) = (I and not T) or (not I and not E); not of oneOf is "none of the branches, or two of
// them at once".
//
// The complement of additionalProperties (or patternProperties) is "some member outside the
// declared names and patterns (or matching the pattern) whose value fails the schema": a witness
// the object compiler tracks with one bit (internal::kSomeMember).
//
// The parts of a merged conjunction that each constrain the keys they do not declare
// (internal::kKeyParts) give one such witness per part.
//
// Items after a prefix: some item from the prefix's length on fails (internal::kContainsFrom);
// contains with bounds: fewer matching items than minContains, or more than maxContains.
//
// Refused (no exact complement here): propertyNames, uniqueItems (not context-free), and the
// complement of a witness.
#include <fmt/format.h>

#include "lib/core/error.h"
#include "lib/json_schema/formats.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

JsonValue not_of(const JsonValue& schema) {
  return make_object({{"not", schema}});
}

JsonValue any_of(std::vector<JsonValue> branches) {
  std::erase_if(branches, [](const JsonValue& b) { return b.is_bool() && !b.boolean; });
  if (branches.empty()) return make_bool(false);
  if (branches.size() == 1) return branches[0];
  return make_object({{"anyOf", make_array(std::move(branches))}});
}

bool is_true_schema(const JsonValue& schema) {
  return (schema.is_bool() && schema.boolean) || (schema.is_object() && schema.members.empty());
}

}  // namespace

JsonValue SchemaCompiler::negate(const JsonValue& schema, const std::string& pointer) {
  // The complement of a schema with unevaluated keywords is that of its rewriting.
  JsonValue merged = flatten_conjunction(document_, without_unevaluated(schema, pointer), pointer);
  if (merged.is_bool()) return make_bool(!merged.boolean);
  // not (rest and C) = not rest, or not C.
  std::optional<JsonValue> complement_of_combinator;
  if (std::optional<JsonValue> any = merged.take("anyOf")) {
    std::vector<JsonValue> parts;
    for (const JsonValue& branch : any->items) parts.push_back(not_of(branch));
    complement_of_combinator = make_all_of(std::move(parts));
  } else if (std::optional<JsonValue> one_of = merged.take("oneOf")) {
    std::vector<JsonValue> flat;
    for (std::size_t i = 0; i < one_of->items.size(); ++i)
      flat.push_back(
          flatten_conjunction(document_, one_of->items[i],
                              pointer_append(pointer_append(pointer, "oneOf"), std::to_string(i))));
    bool disjoint = true;
    for (std::size_t i = 0; i < flat.size() && disjoint; ++i)
      for (std::size_t j = i + 1; j < flat.size() && disjoint; ++j)
        disjoint = provably_disjoint(flat[i], flat[j]);
    std::vector<JsonValue> parts;
    for (const JsonValue& branch : one_of->items) parts.push_back(not_of(branch));
    if (disjoint) {
      complement_of_combinator = make_all_of(std::move(parts));
    } else {
      // Not exactly one: none, or two at once.
      std::vector<JsonValue> branches = {make_all_of(std::move(parts))};
      for (std::size_t i = 0; i < flat.size(); ++i)
        for (std::size_t j = i + 1; j < flat.size(); ++j)
          if (!provably_disjoint(flat[i], flat[j]))
            branches.push_back(make_all_of({one_of->items[i], one_of->items[j]}));
      complement_of_combinator = any_of(std::move(branches));
    }
  } else if (std::optional<JsonValue> inner = merged.take("not")) {
    complement_of_combinator = *inner;
  } else if (std::optional<JsonValue> condition = merged.take("if")) {
    const std::optional<JsonValue> then = merged.take("then");
    const std::optional<JsonValue> otherwise = merged.take("else");
    std::vector<JsonValue> branches;
    if (then) branches.push_back(make_all_of({*condition, not_of(*then)}));
    if (otherwise) branches.push_back(make_all_of({not_of(*condition), not_of(*otherwise)}));
    complement_of_combinator = any_of(std::move(branches));
  } else if (std::optional<JsonValue> dependent = merged.take("dependentSchemas")) {
    std::vector<JsonValue> branches;
    for (const auto& [name, dependency] : dependent->members)
      branches.push_back(make_all_of({make_object({{"type", make_string("object")},
                                                   {"required", make_array({make_string(name)})}}),
                                      not_of(dependency)}));
    complement_of_combinator = any_of(std::move(branches));
  } else if (std::optional<JsonValue> also = merged.take(internal::kAlso)) {
    std::vector<JsonValue> branches;
    for (const JsonValue& conjunct : also->items) branches.push_back(not_of(conjunct));
    complement_of_combinator = any_of(std::move(branches));
  }
  if (complement_of_combinator) {
    // then / else without if do nothing; beside an if still in `merged` they are its branches.
    if (!merged.find("if")) {
      merged.take("then");
      merged.take("else");
    }
    if (merged.members.empty()) return *complement_of_combinator;
    return any_of({not_of(merged), *complement_of_combinator});
  }
  merged.take("then");
  merged.take("else");
  return negate_plain(merged, pointer);
}

JsonValue SchemaCompiler::negate_plain(const JsonValue& m, const std::string& pointer) {
  std::vector<JsonValue> branches;
  // Under the lenient option a keyword without an exact complement makes the whole complement
  // `true`: ignoring the keyword would shrink the complement, and lenient mode only widens.
  bool widened = false;
  auto refuse = [&](const std::string& where, const std::string& message) {
    unenforced(where, message);
    widened = true;
  };
  unsigned types = kAllTypes;
  if (const JsonValue* type = m.find("type")) types = type_bits(*type);
  if ((types & kNumber)) types |= kInteger;
  if (types != kAllTypes) {
    unsigned others = kAllTypes & ~types;
    if ((types & kInteger) && !(types & kNumber)) {
      // integer only: the numbers with a fraction are outside.
      others &= ~static_cast<unsigned>(kNumber | kInteger);
      branches.push_back(
          make_object({{"type", make_string("number")}, {internal::kNotInteger, make_bool(true)}}));
    }
    if (others) branches.push_back(make_object({{"type", type_value(others)}}));
  }
  auto scoped = [&](unsigned scope, std::vector<std::pair<std::string, JsonValue>> members) {
    const unsigned allowed = scope & types;
    if (!allowed) return;
    members.insert(members.begin(), {"type", type_value(allowed)});
    branches.push_back(make_object(std::move(members)));
  };
  const unsigned kNumbers = kNumber | kInteger;
  auto each = [](const JsonValue& list) {
    return list.is_array() ? list.items : std::vector<JsonValue>{list};
  };
  // Some member outside properties and `patterns` whose value fails `additional`.
  auto some_extra_member_fails = [&](const JsonValue& additional, const JsonValue* patterns) {
    if (is_true_schema(additional)) return;
    JsonValue names = make_array();
    if (const JsonValue* properties = m.find("properties"))
      for (const auto& [name, property] : properties->members)
        names.items.push_back(make_string(name));
    JsonValue texts = make_array();
    if (patterns)
      for (const auto& [pattern_text, pattern_schema] : patterns->members)
        texts.items.push_back(make_string(pattern_text));
    scoped(kObject,
           {{internal::kSomeMember,
             make_array({make_object(
                 {{"names", names}, {"patterns", texts}, {"value", not_of(additional)}})})}});
  };
  // The number of items matching `c` is below minContains (default 1) or above maxContains.
  auto count_outside = [&](const JsonValue& c, const JsonValue* min, const JsonValue* max) {
    const double at_least = min && min->is_number() ? min->number : 1;
    if (at_least >= 1)
      scoped(kArray, {{"contains", c},
                      {"minContains", make_number(0)},
                      {"maxContains", make_number(at_least - 1)}});
    if (max && max->is_number())
      scoped(kArray, {{"contains", c}, {"minContains", make_number(max->number + 1)}});
  };
  // Some member matching a pattern whose value fails that pattern's schema.
  auto some_matching_member_fails = [&](const JsonValue& patterns) {
    for (const auto& [pattern_text, pattern_schema] : patterns.members) {
      if (is_true_schema(pattern_schema)) continue;
      scoped(kObject, {{internal::kSomeMember,
                        make_array({make_object({{"matches", make_string(pattern_text)},
                                                 {"value", not_of(pattern_schema)}})})}});
    }
  };
  for (const auto& [key, value] : m.members) {
    // An internal keyword is no place in the document (its name starts with a NUL): the schema's.
    const std::string where = internal::is_internal(key) ? pointer : pointer_append(pointer, key);
    if (key == "type") continue;
    if (key == "enum" || key == "const") {
      branches.push_back(
          make_object({{internal::kNotIn, key == "const" ? make_array({value}) : value}}));
    } else if (key == internal::kNotIn) {
      branches.push_back(make_object({{"enum", value}}));
    } else if (key == "minLength") {
      if (value.is_number() && value.number >= 1)
        scoped(kString, {{"maxLength", make_number(value.number - 1)}});
    } else if (key == "maxLength") {
      if (value.is_number()) scoped(kString, {{"minLength", make_number(value.number + 1)}});
    } else if (key == "pattern" || key == internal::kPatterns) {
      for (const JsonValue& p : each(value))
        scoped(kString, {{internal::kNotPatterns, make_array({p})}});
    } else if (key == internal::kNotPatterns) {
      for (const JsonValue& p : value.items) scoped(kString, {{"pattern", p}});
    } else if (key == "format" || key == internal::kFormats) {
      for (const JsonValue& f : each(value)) {
        if (!f.is_string() || !format_regex(f.string)) continue;  // unknown: an annotation
        if (!format_regex_is_exact(f.string)) {
          refuse(where, fmt::format("the complement of format \"{}\" is not supported: the "
                                    "format is matched by a subset of its strings, so its "
                                    "complement would accept valid ones",
                                    f.string));
          continue;
        }
        scoped(kString, {{internal::kNotFormats, make_array({f})}});
      }
    } else if (key == internal::kNotFormats) {
      for (const JsonValue& f : value.items) scoped(kString, {{"format", f}});
    } else if (key == "minimum" || key == "maximum") {
      const bool lower = key == "minimum";
      const JsonValue* flag = m.find(lower ? "exclusiveMinimum" : "exclusiveMaximum");
      const bool exclusive = flag && flag->is_bool() && flag->boolean;
      // not (x >= v) is x < v; not (x > v) is x <= v.
      const char* complement = lower ? (exclusive ? "maximum" : "exclusiveMaximum")
                                     : (exclusive ? "minimum" : "exclusiveMinimum");
      scoped(kNumbers, {{complement, value}});
    } else if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      if (value.is_number())
        scoped(kNumbers, {{key == "exclusiveMinimum" ? "maximum" : "minimum", value}});
    } else if (key == "multipleOf" || key == internal::kMultiples) {
      for (const JsonValue& v : each(value))
        scoped(kNumbers, {{internal::kNotMultiples, make_array({v})}});
    } else if (key == internal::kNotMultiples) {
      for (const JsonValue& v : value.items) scoped(kNumbers, {{"multipleOf", v}});
    } else if (key == internal::kNotInteger) {
      scoped(kInteger, {});
    } else if (key == "required") {
      for (const JsonValue& name : value.items)
        scoped(kObject, {{internal::kForbidden, make_array({name})}});
    } else if (key == internal::kForbidden) {
      for (const JsonValue& name : value.items) scoped(kObject, {{"required", make_array({name})}});
    } else if (key == "properties") {
      for (const auto& [name, property] : value.members) {
        if (is_true_schema(property)) continue;
        scoped(kObject, {{"required", make_array({make_string(name)})},
                         {"properties", make_object({{name, not_of(property)}})}});
      }
    } else if (key == "additionalProperties") {
      some_extra_member_fails(value, m.find("patternProperties"));
    } else if (key == "patternProperties") {
      some_matching_member_fails(value);
    } else if (key == internal::kKeyParts) {
      // Each part of a merged conjunction constrains the keys it does not declare: some member
      // fails one of them (the declared names took each part's additionalProperties already).
      for (const JsonValue& entry : value.items) {
        if (const JsonValue* patterns = entry.find("patternProperties"))
          some_matching_member_fails(*patterns);
        if (const JsonValue* additional = entry.find("additionalProperties"))
          some_extra_member_fails(*additional, entry.find("patternProperties"));
      }
    } else if (key == "propertyNames" || key == internal::kSomeMember) {
      if (!is_true_schema(value) && (types & kObject))
        refuse(where, fmt::format("the complement of \"{}\" is not supported",
                                  internal::is_internal(key) ? "additionalProperties" : key));
    } else if (key == "minProperties") {
      if (value.is_number() && value.number >= 1)
        scoped(kObject, {{"maxProperties", make_number(value.number - 1)}});
    } else if (key == "maxProperties") {
      if (value.is_number()) scoped(kObject, {{"minProperties", make_number(value.number + 1)}});
    } else if (key == "dependentRequired") {
      for (const auto& [name, names] : value.members)
        for (const JsonValue& other : names.items)
          scoped(kObject, {{"required", make_array({make_string(name)})},
                           {internal::kForbidden, make_array({other})}});
    } else if (key == "prefixItems" || (key == "items" && value.is_array())) {
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (is_true_schema(value.items[i])) continue;
        std::vector<JsonValue> positions(i, make_bool(true));
        positions.push_back(not_of(value.items[i]));
        scoped(kArray, {{"minItems", make_number(static_cast<double>(i + 1))},
                        {"prefixItems", make_array(std::move(positions))}});
      }
    } else if (key == "items" || key == "additionalItems") {
      if (is_true_schema(value)) continue;
      const JsonValue* prefix =
          key == "items"
              ? m.find("prefixItems")
              : (m.find("items") && m.find("items")->is_array() ? m.find("items") : nullptr);
      if (key == "additionalItems" && !prefix) continue;  // needs an items array
      if (prefix) {
        // Some item after the prefix fails the schema.
        const double length = static_cast<double>(prefix->items.size());
        if (value.is_bool() && !value.boolean)
          scoped(kArray, {{"minItems", make_number(length + 1)}});
        else
          scoped(kArray, {{internal::kContainsFrom,
                           make_array({make_object(
                               {{"from", make_number(length)}, {"schema", not_of(value)}})})}});
        continue;
      }
      scoped(kArray, {{internal::kContains, make_array({not_of(value)})}});
    } else if (key == "minItems") {
      if (value.is_number() && value.number >= 1)
        scoped(kArray, {{"maxItems", make_number(value.number - 1)}});
    } else if (key == "maxItems") {
      if (value.is_number()) scoped(kArray, {{"minItems", make_number(value.number + 1)}});
    } else if (key == "uniqueItems") {
      if (value.is_bool() && value.boolean && (types & kArray))
        refuse(where, "the complement of uniqueItems (some item repeated) is not supported");
    } else if (key == "contains" || key == internal::kContains) {
      if (key == "contains" && (m.find("minContains") || m.find("maxContains"))) {
        count_outside(value, m.find("minContains"), m.find("maxContains"));
        continue;
      }
      for (const JsonValue& c : key == "contains" ? std::vector<JsonValue>{value} : value.items)
        scoped(kArray, {{"items", not_of(c)}});
    } else if (key == internal::kCountedContains) {
      for (const JsonValue& entry : value.items)
        count_outside(*entry.find("contains"), entry.find("minContains"),
                      entry.find("maxContains"));
    } else if (key == internal::kContainsFrom) {
      // Every item from the position on fails the schema.
      for (const JsonValue& entry : value.items) {
        const auto from = static_cast<std::size_t>(entry.find("from")->number);
        scoped(kArray, {{"prefixItems", make_array(std::vector<JsonValue>(from, make_bool(true)))},
                        {"items", not_of(*entry.find("schema"))}});
      }
    }
    // Other keywords are annotations (or read with one above: exclusive* flags, minContains).
  }
  if (widened) return make_bool(true);
  return any_of(std::move(branches));
}

}  // namespace glrmask::json_schema::detail
