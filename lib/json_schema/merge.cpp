#include "lib/json_schema/merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/unevaluated.h"

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

constexpr std::array kCombinatorKeywords = {"anyOf", "oneOf",           "not", "if", "then",
                                            "else",  "dependentSchemas"};

// A stack guard, not a semantic limit: $ref and allOf merged into one place nest at most this
// deep (a chain of distinct $refs is as long as the document allows; a loop is found by name).
constexpr int kMaxDepth = 1000;

struct Part {
  JsonValue schema;
  std::string pointer;
};

JsonValue* find_member(JsonValue& object, std::string_view key) {
  for (auto& [name, member] : object.members)
    if (name == key) return &member;
  return nullptr;
}

// `dependencies` (drafts 4-7) as the two keywords that replaced it in 2019-09.
void split_dependencies(const JsonValue& dependencies, JsonValue& rest) {
  JsonValue required = make_object();
  JsonValue schemas = make_object();
  for (const auto& [name, value] : dependencies.members)
    (value.is_array() ? required : schemas).members.emplace_back(name, value);
  if (!required.members.empty()) rest.members.emplace_back("dependentRequired", required);
  if (!schemas.members.empty()) rest.members.emplace_back("dependentSchemas", schemas);
}

// The $ref targets of one conjunction: those on the current path (meeting one again is a loop:
// the schema would be its own conjunct, refused with the chain) and those already merged.
struct RefTrail {
  std::vector<std::string> path;
  std::unordered_set<std::string> merged;
};

void collect(const SchemaDocument& document, const JsonValue& schema, const std::string& pointer,
             int depth, std::vector<Part>& parts, RefTrail& refs);

// Merges the target of the `$ref` at `pointer` into `parts`, once: A and A is A, and merging a
// target again for every path that reaches it would make a chain of n levels, each the allOf of
// two $refs to the level below, cost 2^n parts.
void collect_ref(const SchemaDocument& document, const JsonValue& ref, const std::string& pointer,
                 int depth, std::vector<Part>& parts, RefTrail& refs) {
  const std::string target = document.resolve_ref(ref, pointer_append(pointer, "$ref"));
  if (std::find(refs.path.begin(), refs.path.end(), target) != refs.path.end()) {
    std::string chain;
    for (const std::string& step : refs.path) chain += "#" + step + " -> ";
    document.fail(pointer_append(pointer, "$ref"),
                  fmt::format("$ref loops with no schema in between: {}#{}", chain, target));
  }
  if (refs.merged.contains(target)) return;
  refs.path.push_back(target);
  collect(document, document.at(target), target, depth + 1, parts, refs);
  refs.path.pop_back();
  refs.merged.insert(target);
}

void collect(const SchemaDocument& document, const JsonValue& schema, const std::string& pointer,
             int depth, std::vector<Part>& parts, RefTrail& refs) {
  if (depth > kMaxDepth)
    document.fail(pointer, fmt::format("$ref / allOf nesting is deeper than {}", kMaxDepth));
  if (schema.is_bool()) {
    if (!schema.boolean) parts.push_back({schema, pointer});
    return;
  }
  if (!schema.is_object()) document.fail(pointer, "a schema must be an object or a boolean");
  const JsonValue* ref = schema.find("$ref");
  if (ref && document.ref_overrides_siblings()) {
    // Drafts 4-7: the reference replaces the whole schema object.
    collect_ref(document, *ref, pointer, depth, parts, refs);
    return;
  }
  JsonValue rest = make_object();
  for (const auto& [key, value] : schema.members) {
    if (key == "$ref" || key == "allOf" || !is_validation_keyword(key)) continue;
    // Before 2019-09 the unevaluated keywords are unknown keywords: annotations.
    if ((key == "unevaluatedProperties" || key == "unevaluatedItems") &&
        document.draft() < Draft::k2019_09)
      continue;
    if (key == "dependencies" && value.is_object()) {
      split_dependencies(value, rest);
      continue;
    }
    rest.members.emplace_back(key, value);
  }
  if (!rest.members.empty()) parts.push_back({std::move(rest), pointer});
  if (ref) collect_ref(document, *ref, pointer, depth, parts, refs);
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
  JsonValue out = make_array();
  for (const std::string& name : left) {
    const bool keep = has(right, name) || (name == "integer" && has(right, "number"));
    if (keep) out.items.push_back(make_string(name));
  }
  if (has(left, "number") && has(right, "integer") && !has(left, "integer"))
    out.items.push_back(make_string("integer"));
  return out;
}

bool is_lower_bound(std::string_view key) {
  return key == "minLength" || key == "minItems" || key == "minProperties" || key == "minimum" ||
         key == "minContains";
}
bool is_upper_bound(std::string_view key) {
  return key == "maxLength" || key == "maxItems" || key == "maxProperties" || key == "maximum" ||
         key == "maxContains";
}

// Keywords whose values become an internal list when two parts disagree.
const std::string* list_key(std::string_view key) {
  if (key == "pattern") return &internal::kPatterns;
  if (key == "format") return &internal::kFormats;
  if (key == "multipleOf") return &internal::kMultiples;
  if (key == "contains") return &internal::kContains;
  return nullptr;
}

bool accepts_everything(const JsonValue& schema) {
  return (schema.is_bool() && schema.boolean) || (schema.is_object() && schema.members.empty());
}

// Both schemas, without wrapping a `true` (unevaluatedProperties declares names with `true`).
JsonValue conjoin(const JsonValue& a, const JsonValue& b) {
  if (accepts_everything(b)) return a;
  if (accepts_everything(a)) return b;
  return make_all_of({a, b});
}

void append_unique(JsonValue& list, const JsonValue& item) {
  if (std::find(list.items.begin(), list.items.end(), item) == list.items.end())
    list.items.push_back(item);
}

// Draft 4's boolean exclusiveMinimum / exclusiveMaximum is a flag on minimum / maximum, so a
// merge that keeps one part's bound must keep its flag with it. Written in the numeric form of
// draft 6 (`minimum: 3, exclusiveMinimum: true` is `exclusiveMinimum: 3`), the bounds of each
// kind merge on their own and the number compiler takes the tighter one (at equal values the
// exclusive one).
JsonValue numeric_exclusive_bounds(const JsonValue& schema) {
  if (!schema.is_object()) return schema;
  JsonValue out = schema;
  for (const auto& [inclusive, exclusive] :
       {std::pair{"minimum", "exclusiveMinimum"}, std::pair{"maximum", "exclusiveMaximum"}}) {
    JsonValue* flag = find_member(out, exclusive);
    if (!flag || !flag->is_bool()) continue;
    JsonValue* bound = find_member(out, inclusive);
    if (flag->boolean && bound && bound->is_number()) {
      *flag = *bound;
      std::erase_if(out.members, [&](const auto& member) { return member.first == inclusive; });
    } else if (!flag->boolean || !bound) {
      std::erase_if(out.members, [&](const auto& member) { return member.first == exclusive; });
    }
  }
  return out;
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
    for (const JsonValue& name : value.items) append_unique(into, name);
    return true;
  }
  if (key == "properties" || key == "dependentSchemas" || key == "patternProperties") {
    for (const auto& [name, schema] : value.members) {
      if (JsonValue* existing = find_member(into, name))
        *existing = conjoin(*existing, schema);
      else
        into.members.emplace_back(name, schema);
    }
    return true;
  }
  if (key == "dependentRequired") {
    for (const auto& [name, names] : value.members) {
      if (JsonValue* existing = find_member(into, name)) {
        for (const JsonValue& item : names.items) append_unique(*existing, item);
      } else {
        into.members.emplace_back(name, names);
      }
    }
    return true;
  }
  // Positions in an array: merge_array_positions, once every part is in.
  if (key == "items" || key == "prefixItems" || key == "additionalItems") return true;
  if (key == "additionalProperties" || key == "propertyNames") {
    into = make_all_of({into, value});
    return true;
  }
  if ((is_lower_bound(key) || is_upper_bound(key)) && into.is_number() && value.is_number()) {
    const bool take = is_lower_bound(key) ? value.number > into.number : value.number < into.number;
    if (take) into = value;
    return true;
  }
  if ((key == "exclusiveMinimum" || key == "exclusiveMaximum") && into.is_number() &&
      value.is_number()) {
    const bool take =
        key == "exclusiveMinimum" ? value.number > into.number : value.number < into.number;
    if (take) into = value;
    return true;
  }
  if (key == "uniqueItems" && into.is_bool() && value.is_bool()) {
    into.boolean = into.boolean || value.boolean;
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
  if (internal::is_internal(key) && into.is_array() && value.is_array()) {
    for (const JsonValue& item : value.items) append_unique(into, item);
    return true;
  }
  if (key == internal::kNotInteger) {
    into = make_bool(true);
    return true;
  }
  document.fail(pointer_append(pointer, key),
                fmt::format("allOf: different values of \"{}\" cannot be combined", key));
}

// The schema a part gives each array position: its tuple (prefixItems, or draft 4's items array)
// for the first positions, its `items` (after prefixItems) or `additionalItems` (after an items
// array) for the rest.
struct ArrayPositions {
  std::vector<JsonValue> tuple;
  JsonValue rest = make_bool(true);
};

ArrayPositions array_positions(const JsonValue& schema) {
  ArrayPositions positions;
  const JsonValue* items = schema.find("items");
  if (const JsonValue* prefix = schema.find("prefixItems"); prefix && prefix->is_array()) {
    positions.tuple = prefix->items;
    if (items) positions.rest = *items;
  } else if (items && items->is_array()) {
    positions.tuple = items->items;
    if (const JsonValue* additional = schema.find("additionalItems")) positions.rest = *additional;
  } else if (items) {
    positions.rest = *items;
  }
  return positions;
}

JsonValue conjunction_of(std::vector<JsonValue> schemas) {
  std::erase_if(schemas, [](const JsonValue& s) { return s.is_bool() && s.boolean; });
  if (schemas.empty()) return make_bool(true);
  if (schemas.size() == 1) return std::move(schemas[0]);
  return make_all_of(std::move(schemas));
}

// A part's `items` applies after that part's own tuple, not after the merged one: with two or more
// parts that say something about positions, position i takes from every part its tuple's i-th
// schema, or that part's rest when its tuple is shorter ({"allOf": [{"prefixItems": [A]}],
// "items": B} gives [A and B], then B). The merged schema says it in prefixItems and items.
void merge_array_positions(const std::vector<Part>& parts, JsonValue& merged) {
  std::vector<ArrayPositions> positions;
  for (const Part& part : parts)
    if (part.schema.find("items") || part.schema.find("prefixItems") ||
        part.schema.find("additionalItems"))
      positions.push_back(array_positions(part.schema));
  if (positions.size() < 2) return;
  std::size_t length = 0;
  for (const ArrayPositions& p : positions) length = std::max(length, p.tuple.size());
  std::vector<JsonValue> tuple(length);
  for (std::size_t i = 0; i < length; ++i) {
    std::vector<JsonValue> at;
    for (const ArrayPositions& p : positions)
      at.push_back(i < p.tuple.size() ? p.tuple[i] : p.rest);
    tuple[i] = conjunction_of(std::move(at));
  }
  std::vector<JsonValue> rests;
  for (const ArrayPositions& p : positions) rests.push_back(p.rest);
  JsonValue rest = conjunction_of(std::move(rests));
  std::erase_if(merged.members, [](const auto& member) {
    return member.first == "items" || member.first == "prefixItems" ||
           member.first == "additionalItems";
  });
  if (length) merged.members.emplace_back("prefixItems", make_array(std::move(tuple)));
  if (!(rest.is_bool() && rest.boolean)) merged.members.emplace_back("items", std::move(rest));
}

}  // namespace

bool is_validation_keyword(std::string_view keyword) {
  if (internal::is_internal(keyword)) return true;
  return std::find(kValidationKeywords.begin(), kValidationKeywords.end(), keyword) !=
         kValidationKeywords.end();
}

bool is_combinator_keyword(std::string_view keyword) {
  return keyword == internal::kAlso ||
         std::find(kCombinatorKeywords.begin(), kCombinatorKeywords.end(), keyword) !=
             kCombinatorKeywords.end();
}

JsonValue flatten_conjunction(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer) {
  // unevaluatedProperties / unevaluatedItems depend on the parts' structure, which the merge
  // folds away: they are rewritten first (unevaluated.h).
  if (has_unevaluated_in_place(document, schema))
    return flatten_conjunction(document, resolve_unevaluated(document, schema, pointer), pointer);
  std::vector<Part> parts;
  RefTrail refs;
  collect(document, schema, pointer, 0, parts, refs);
  for (const Part& part : parts)
    if (part.schema.is_bool()) return make_bool(false);
  if (parts.empty()) return make_object();
  if (parts.size() == 1) return parts[0].schema;
  JsonValue merged = make_object();
  bool combinators_placed = false;
  std::vector<JsonValue> also;
  std::vector<std::pair<std::string, JsonValue>> listed;
  for (const Part& part : parts) {
    // A part's combinators stay together; the first part's at the top, the rest as conjuncts.
    JsonValue combinators = make_object();
    for (const auto& [key, value] : part.schema.members) {
      if (key == internal::kAlso) {
        for (const JsonValue& item : value.items) also.push_back(item);
        continue;
      }
      if (!is_combinator_keyword(key)) continue;
      combinators.members.emplace_back(key, value);
    }
    if (!combinators.members.empty()) {
      if (!combinators_placed) {
        for (auto& member : combinators.members) merged.members.push_back(std::move(member));
        combinators_placed = true;
      } else {
        also.push_back(std::move(combinators));
      }
    }
    const JsonValue keywords = numeric_exclusive_bounds(part.schema);
    // minContains and maxContains bind their own part's contains only: beside a contains an
    // earlier part placed, this part's contains goes to a list with its bounds.
    const JsonValue* own_contains = part.schema.find("contains");
    const JsonValue* placed = find_member(merged, "contains");
    const bool separate = own_contains && placed;
    if (separate) {
      JsonValue entry = make_object({{"contains", *own_contains}});
      for (const char* bound : {"minContains", "maxContains"})
        if (const JsonValue* value = part.schema.find(bound))
          entry.members.emplace_back(bound, *value);
      // (The same contains without bounds says nothing more, unless the placed one has bounds:
      // this part still needs one matching item.)
      const bool bounded = find_member(merged, "minContains") || find_member(merged, "maxContains");
      if (entry.members.size() > 1)
        listed.emplace_back(internal::kCountedContains, std::move(entry));
      else if (!(*placed == *own_contains) || bounded)
        listed.emplace_back(internal::kContains, *own_contains);
    }
    for (const auto& [key, value] : keywords.members) {
      if (is_combinator_keyword(key)) continue;
      if ((!own_contains || separate) && (key == "minContains" || key == "maxContains")) continue;
      if (separate && key == "contains") continue;
      if (JsonValue* existing = find_member(merged, key)) {
        if (const std::string* list = list_key(key); list && !(*existing == value)) {
          // Both must hold: the first stays, the others go to the internal list.
          listed.emplace_back(*list, value);
          continue;
        }
        if (!combine(document, part.pointer, key, *existing, value)) return make_bool(false);
      } else {
        merged.members.emplace_back(key, value);
      }
    }
  }
  for (const auto& [list, value] : listed) {
    JsonValue* existing = find_member(merged, list);
    if (!existing) {
      merged.members.emplace_back(list, make_array());
      existing = &merged.members.back().second;
    }
    append_unique(*existing, value);
  }
  if (!also.empty()) merged.members.emplace_back(internal::kAlso, make_array(std::move(also)));

  // What each part says about the keys it does not declare: its patternProperties and
  // additionalProperties, or the entries of a part merged before (internal::kKeyParts).
  struct KeyEntry {
    JsonValue patterns = make_object();   // pattern -> schema
    std::optional<JsonValue> additional;  // absent or `true`: nothing
    const JsonValue* own = nullptr;       // the part's properties
    std::string pointer;
  };
  std::vector<KeyEntry> entries;
  for (const Part& part : parts) {
    const JsonValue* own = part.schema.find("properties");
    auto add = [&](const JsonValue& holder) {
      KeyEntry entry;
      entry.own = own;
      entry.pointer = part.pointer;
      if (const JsonValue* additional = holder.find("additionalProperties");
          additional && !accepts_everything(*additional))
        entry.additional = *additional;
      if (const JsonValue* patterns = holder.find("patternProperties"))
        for (const auto& [pattern_text, pattern_schema] : patterns->members)
          // Without an additionalProperties beside it a pattern whose schema is `true` says
          // nothing (with one, it exempts the keys it matches).
          if (entry.additional || !accepts_everything(pattern_schema))
            entry.patterns.members.emplace_back(pattern_text, pattern_schema);
      if (!entry.patterns.members.empty() || entry.additional) entries.push_back(std::move(entry));
    };
    add(part.schema);
    if (const JsonValue* list = part.schema.find(internal::kKeyParts))
      for (const JsonValue& item : list->items) add(item);
  }
  auto matched = [&](const KeyEntry& entry, const std::string& name) {
    for (const auto& [pattern_text, pattern_schema] : entry.patterns.members)
      if (ecma_search(pattern_text, name,
                      document.where(pointer_append(
                          pointer_append(entry.pointer, "patternProperties"), pattern_text))))
        return true;
    return false;
  };
  // A part's additionalProperties also governs the properties the other parts declare: a name
  // the part does not declare and none of its patterns matches takes it. (A name its pattern
  // matches takes the pattern's schema through the patterns applied to declared names.)
  if (JsonValue* properties = find_member(merged, "properties")) {
    for (auto& [name, value] : properties->members)
      for (const KeyEntry& entry : entries)
        if (entry.additional && !(entry.own && entry.own->find(name)) && !matched(entry, name))
          value = make_all_of({value, *entry.additional});
  }
  std::erase_if(merged.members, [](const auto& member) {
    return member.first == "additionalProperties" || member.first == "patternProperties" ||
           member.first == internal::kKeyParts;
  });
  // One patternProperties and one additionalProperties say the same as the entries when at
  // most one entry has an additionalProperties and its patterns include every other entry's:
  // a key none of them matches then meets that one additionalProperties, and a key some match
  // meets the schemas of all the patterns it matches.
  const KeyEntry* closing = nullptr;
  bool single = true;
  for (const KeyEntry& entry : entries)
    if (entry.additional) {
      single = single && !closing;
      closing = &entry;
    }
  if (single && closing)
    for (const KeyEntry& entry : entries)
      if (&entry != closing)
        for (const auto& [pattern_text, pattern_schema] : entry.patterns.members)
          single = single && closing->patterns.find(pattern_text);
  if (single) {
    JsonValue patterns = make_object();
    for (const KeyEntry& entry : entries)
      for (const auto& [pattern_text, pattern_schema] : entry.patterns.members) {
        if (JsonValue* existing = find_member(patterns, pattern_text))
          *existing = conjoin(*existing, pattern_schema);
        else
          patterns.members.emplace_back(pattern_text, pattern_schema);
      }
    if (!patterns.members.empty())
      merged.members.emplace_back("patternProperties", std::move(patterns));
    if (closing) merged.members.emplace_back("additionalProperties", *closing->additional);
  } else {
    // Extra keys of a conjunction whose parts disagree about them: each part's patterns and
    // additionalProperties in a list the object compiler splits into key regions.
    JsonValue list = make_array();
    for (const KeyEntry& entry : entries) {
      JsonValue item = make_object();
      if (!entry.patterns.members.empty())
        item.members.emplace_back("patternProperties", entry.patterns);
      if (entry.additional) item.members.emplace_back("additionalProperties", *entry.additional);
      list.items.push_back(std::move(item));
    }
    merged.members.emplace_back(internal::kKeyParts, std::move(list));
  }
  merge_array_positions(parts, merged);
  return merged;
}

}  // namespace glrmask::json_schema
