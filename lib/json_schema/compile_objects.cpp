// Objects: the member chain. Each distinct state of an object under construction is one
// nonterminal deriving the rest of the object (its members and the closing brace):
//   position   schema order: the next declared property that may come;
//   seen       the tracked names that have come (required names outside the declared order,
//              names a dependentRequired involves, every name in exact any-order mode);
//   count      members so far, for maxProperties (occurrences: a repeated key counts twice,
//              which only makes the bound stricter);
//   distinct   members known to have distinct keys, for minProperties: declared and named members
//              come at most once each, but two extra members may repeat one key (which a parser
//              reads as one member), so all extra members together count as one;
//   extra_seen an extra member has come (and was counted in distinct);
//   initial    while minProperties needs more undeclared keys than one: the ASCII letter or digit
//              the last counted extra key began with (keys written with increasing initials are
//              distinct), or that an extra key with another initial was counted;
//   first      no member yet, so no comma before the next one;
//   after_extras a list of extra members just ended (so two lists are not adjacent).
// A member is a declared property (its value also obeys the patterns its name matches), a named
// member (a required or dependency name the properties do not declare), or an extra member whose
// key falls in one region of the key space: the keys matching exactly a given set of patterns
// (patternProperties of every part of a conjunction) and no declared name, each region with the
// conjunction of its schemas (or additionalProperties where no pattern of a part matches), and
// within propertyNames.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "lib/core/error.h"
#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/instance_check.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/pattern.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

// A member an object may hold under one known name.
struct NamedMember {
  std::string name;
  std::string value_symbol;
  bool required = false;
  std::vector<JsonValue> value_parts;  // the schemas whose conjunction value_symbol derives
  std::string pointer;
};

// "Some member whose key is in K has a value satisfying X" (internal::kSomeMember): the
// complement of additionalProperties and of patternProperties.
struct Witness {
  std::vector<std::string> names;     // the key is none of these
  std::vector<std::string> patterns;  // and matches none of these
  std::optional<std::string> match;   // and matches this one
  JsonValue value;
};

struct ObjectState {
  std::size_t position = 0;
  std::uint64_t seen = 0;
  std::uint32_t witnessed = 0;  // one bit per witness found
  std::size_t count = 0;
  std::size_t distinct = 0;
  bool extra_seen = false;
  std::uint8_t initial = 0;  // 0: none counted; 1..62: kKeyInitials[initial - 1]; kOtherInitial
  bool first = true;
  bool after_extras = false;
  auto operator<=>(const ObjectState&) const = default;
};

// How many names any-order objects track exactly (each at most once): 2^n states.
constexpr std::size_t kExactAnyOrderNames = 6;
// How many names an object may track at all.
constexpr std::size_t kTrackedNames = 12;
// Counts beyond this (minProperties / maxProperties) are refused.
constexpr std::size_t kMaxCount = 64;
// The initials by which extra keys count as distinct (ASCII order), and the state value after an
// extra key with any other initial (or an escaped one) was counted: it may equal any other key,
// so it is the only extra key counted.
constexpr std::string_view kKeyInitials =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr auto kOtherInitial = static_cast<std::uint8_t>(kKeyInitials.size() + 1);
// The bound on the chain's states (tracked names x counts x initials) under which extra keys
// count by their initials.
constexpr double kMaxInitialStates = 20000;
// Patterns over all parts beyond this would give too many key regions (2^n).
constexpr std::size_t kMaxPatterns = 6;

// One part's say about keys it does not declare.
struct KeyPart {
  std::vector<std::pair<std::string, JsonValue>> patterns;  // pattern -> schema
  std::optional<JsonValue> additional;                      // absent: true
  std::string pointer;
};

}  // namespace

std::string SchemaCompiler::object(const JsonValue& schema, const std::string& pointer) {
  const JsonValue* properties = schema.find("properties");
  if (properties && !properties->is_object())
    document_.fail(pointer_append(pointer, "properties"), "properties must be an object");
  std::vector<std::string> required;  // in the order `required` lists them
  if (const JsonValue* list = schema.find("required")) {
    if (!list->is_array())
      document_.fail(pointer_append(pointer, "required"), "required must be an array");
    for (const JsonValue& item : list->items) {
      if (!item.is_string())
        document_.fail(pointer_append(pointer, "required"), "required names must be strings");
      if (std::find(required.begin(), required.end(), item.string) == required.end())
        required.push_back(item.string);
    }
  }
  auto is_required = [&](const std::string& name) {
    return std::find(required.begin(), required.end(), name) != required.end();
  };
  std::set<std::string> forbidden;  // `not {"required": [name]}`, propertyNames failures
  if (const JsonValue* names = schema.find(internal::kForbidden))
    for (const JsonValue& item : names->items) forbidden.insert(item.string);
  auto counted = [&](const char* key) -> std::optional<std::size_t> {
    const JsonValue* value = schema.find(key);
    if (!value) return std::nullopt;
    if (!value->is_number() || value->number < 0 || std::floor(value->number) != value->number)
      document_.fail(pointer_append(pointer, key), "must be a non-negative integer");
    if (value->number > static_cast<double>(kMaxCount)) {
      unenforced(pointer_append(pointer, key), fmt::format("{} above {}", key, kMaxCount));
      return std::nullopt;
    }
    return static_cast<std::size_t>(value->number);
  };
  const std::size_t min_properties = counted("minProperties").value_or(0);
  const std::optional<std::size_t> max_properties = counted("maxProperties");
  if (max_properties && min_properties > *max_properties) return "";

  // The key parts: one for a plain schema, one per part of a conjunction that disagreed.
  std::vector<KeyPart> key_parts;
  auto read_part = [&](const JsonValue& holder, const std::string& where) {
    KeyPart part;
    part.pointer = where;
    if (const JsonValue* patterns = holder.find("patternProperties")) {
      if (!patterns->is_object())
        document_.fail(pointer_append(where, "patternProperties"),
                       "patternProperties must be an object");
      part.patterns = patterns->members;
    }
    if (const JsonValue* additional = holder.find("additionalProperties"))
      part.additional = *additional;
    key_parts.push_back(std::move(part));
  };
  if (const JsonValue* list = schema.find(internal::kKeyParts)) {
    for (const JsonValue& entry : list->items) read_part(entry, pointer);
  } else {
    read_part(schema, pointer);
  }
  std::size_t pattern_count = 0;
  for (const KeyPart& part : key_parts) pattern_count += part.patterns.size();
  auto pattern_pointer = [&](const KeyPart& part, const std::string& pattern_text) {
    return pointer_append(pointer_append(part.pointer, "patternProperties"), pattern_text);
  };
  auto matches = [&](const KeyPart& part, const std::string& pattern_text,
                     const std::string& name) {
    return ecma_search(pattern_text, name, document_.where(pattern_pointer(part, pattern_text)));
  };

  // propertyNames: names must validate; keys of extra members must match its string constraint.
  const JsonValue* property_names = schema.find("propertyNames");
  std::optional<StringParts> name_parts;
  if (property_names) {
    const std::string where = pointer_append(pointer, "propertyNames");
    const JsonValue flat = flatten_conjunction(document_, *property_names, where);
    if (flat.is_bool()) {
      if (!flat.boolean) {
        name_parts = StringParts{};
        name_parts->empty = true;
      }
    } else {
      for (const auto& [key, value] : flat.members)
        if (is_combinator_keyword(key))
          unenforced(where, "propertyNames with anyOf / oneOf / not / if is not supported");
      if (!(schema_types(flat) & kString)) {
        name_parts = StringParts{};
        name_parts->empty = true;
      } else if (const JsonValue* values = flat.find("enum"); values || flat.find("const")) {
        std::string names;
        for (const JsonValue& item :
             values ? values->items : std::vector<JsonValue>{*flat.find("const")})
          if (item.is_string() && instance_validates(document_, flat, item, where))
            names += (names.empty() ? "" : "|") + json_string_literal_regex(item.string);
        name_parts = StringParts{};
        if (names.empty()) {
          name_parts->empty = true;
        } else {
          name_parts->positive.push_back(names);
          name_parts->canonical = true;
        }
      } else {
        name_parts = string_parts(flat, where);
      }
    }
    auto name_allowed = [&](const std::string& name) {
      return instance_validates(document_, *property_names, make_string(name), where);
    };
    if (properties)
      for (const auto& [name, property] : properties->members)
        if (!name_allowed(name)) forbidden.insert(name);
    for (const std::string& name : required)
      if (!name_allowed(name)) return "";
  }
  for (const std::string& name : forbidden)
    if (is_required(name)) return "";

  // The schemas a name not declared by `properties` takes: per part, its matching patterns, or
  // its additionalProperties where none matches. nullopt when some part forbids the name.
  auto undeclared_schema = [&](const std::string& name) -> std::optional<std::vector<JsonValue>> {
    std::vector<JsonValue> parts;
    for (const KeyPart& part : key_parts) {
      bool matched = false;
      for (const auto& [pattern_text, pattern_schema] : part.patterns)
        if (matches(part, pattern_text, name)) {
          parts.push_back(pattern_schema);
          matched = true;
        }
      if (!matched && part.additional) {
        if (part.additional->is_bool() && !part.additional->boolean) return std::nullopt;
        parts.push_back(*part.additional);
      }
    }
    return parts;
  };
  auto conjunction_symbol = [&](std::vector<JsonValue> parts, const std::string& where) {
    if (parts.empty()) return any_value();
    if (parts.size() == 1) return value(parts[0], where);
    return value(make_all_of(std::move(parts)), where);
  };

  // Declared properties in schema order; each value also obeys the patterns its name matches.
  std::vector<NamedMember> declared_members;
  std::vector<std::string> known_names;  // declared or named: not keys of extra members
  if (properties) {
    for (const auto& [name, property] : properties->members) {
      known_names.push_back(name);
      if (forbidden.count(name)) continue;
      const std::string where = pointer_append(pointer_append(pointer, "properties"), name);
      std::vector<JsonValue> parts = {property};
      for (const KeyPart& part : key_parts)
        for (const auto& [pattern_text, pattern_schema] : part.patterns)
          if (matches(part, pattern_text, name)) parts.push_back(pattern_schema);
      declared_members.push_back(
          {name, conjunction_symbol(parts, where), is_required(name), parts, where});
    }
  }
  // Named members outside `properties`: required names and names a dependency involves.
  std::vector<std::pair<std::string, std::vector<std::string>>> dependencies;
  if (const JsonValue* dependent = schema.find("dependentRequired")) {
    for (const auto& [name, names] : dependent->members) {
      std::vector<std::string> needed;
      for (const JsonValue& item : names.items)
        if (item.is_string() && item.string != name) needed.push_back(item.string);
      if (forbidden.count(name)) continue;  // never present, never triggers
      for (const std::string& other : needed)
        if (forbidden.count(other)) forbidden.insert(name);  // present would need a forbidden name
      if (forbidden.count(name)) {
        if (is_required(name)) return "";
        continue;
      }
      dependencies.emplace_back(name, needed);
    }
  }
  std::vector<NamedMember> named_members;
  auto add_named = [&](const std::string& name, bool required_name) -> bool {
    if (std::find(known_names.begin(), known_names.end(), name) != known_names.end()) return true;
    if (forbidden.count(name)) return !required_name;
    const std::optional<std::vector<JsonValue>> parts = undeclared_schema(name);
    known_names.push_back(name);
    if (!parts) return !required_name;  // no member of that name may exist
    named_members.push_back(
        {name, conjunction_symbol(*parts, pointer), required_name, *parts, pointer});
    return true;
  };
  for (const std::string& name : required)
    if (!add_named(name, true)) return "";
  for (const auto& [name, needed] : dependencies) {
    add_named(name, false);
    for (const std::string& other : needed) add_named(other, is_required(other));
  }

  // Witnesses: members some key region must hold (complements of additionalProperties and
  // patternProperties, negation.cpp).
  std::vector<Witness> witnesses;
  if (const JsonValue* list = schema.find(internal::kSomeMember)) {
    for (const JsonValue& entry : list->items) {
      Witness w;
      if (const JsonValue* names = entry.find("names"))
        for (const JsonValue& n : names->items) w.names.push_back(n.string);
      if (const JsonValue* patterns = entry.find("patterns"))
        for (const JsonValue& p : patterns->items) w.patterns.push_back(p.string);
      if (const JsonValue* match = entry.find("matches")) w.match = match->string;
      w.value = entry.find("value") ? *entry.find("value") : make_bool(true);
      witnesses.push_back(std::move(w));
    }
    if (witnesses.size() > 3)
      unenforced(pointer, "more than 3 complements of additionalProperties / patternProperties");
    witnesses.resize(std::min<std::size_t>(witnesses.size(), 3));
  }
  const std::string where_witness = pointer;
  auto in_witness_keys = [&](const Witness& w, const std::string& name) {
    if (std::find(w.names.begin(), w.names.end(), name) != w.names.end()) return false;
    for (const std::string& p : w.patterns)
      if (ecma_search(p, name, document_.where(where_witness))) return false;
    return !w.match || ecma_search(*w.match, name, document_.where(where_witness));
  };
  // The witnesses a value of these parts may satisfy at once, as (subset, symbol).
  auto witness_variants = [&](const std::vector<JsonValue>& parts, const std::string& where,
                              std::uint32_t allowed) {
    std::vector<std::pair<std::uint32_t, std::string>> out;
    for (std::uint32_t subset = 1; subset < (1u << witnesses.size()); ++subset) {
      if ((subset & allowed) != subset) continue;
      std::vector<JsonValue> all = parts;
      for (std::size_t j = 0; j < witnesses.size(); ++j)
        if (subset >> j & 1) all.push_back(witnesses[j].value);
      const std::string symbol = value(make_all_of(std::move(all)), where);
      if (!is_never(symbol)) out.emplace_back(subset, symbol);
    }
    return out;
  };

  // Extra members: one symbol per region of the key space.
  std::vector<std::string> extra_symbols;
  struct ExtraRegion {
    StringParts key;
    std::string value_symbol;
  };
  std::vector<ExtraRegion> extra_regions;
  // With witnesses: per subset of them, the extra members that satisfy that subset.
  std::map<std::uint32_t, std::vector<std::string>> witness_extras;
  const bool no_names = name_parts && name_parts->empty;
  if (!no_names) {
    if (pattern_count > kMaxPatterns)
      unenforced(pointer_append(pointer, "patternProperties"),
                 fmt::format("{} patterns over the parts of one object (key regions grow as "
                             "2^n); at most {}",
                             pattern_count, kMaxPatterns));
    std::vector<std::pair<const KeyPart*, std::size_t>> all_patterns;  // (part, index)
    for (const KeyPart& part : key_parts)
      for (std::size_t i = 0; i < part.patterns.size() && all_patterns.size() < kMaxPatterns; ++i)
        all_patterns.emplace_back(&part, i);
    std::vector<std::string> excluded = known_names;
    excluded.insert(excluded.end(), forbidden.begin(), forbidden.end());
    std::string excluded_regex;
    for (const std::string& name : excluded)
      excluded_regex += (excluded_regex.empty() ? "" : "|") + json_string_literal_regex(name);
    for (std::uint64_t region = 0; region < (std::uint64_t{1} << all_patterns.size()); ++region) {
      // The region's schema: per part, its patterns in the region, else its additional.
      std::vector<JsonValue> parts;
      bool forbidden_region = false;
      std::string where = pointer;
      for (const KeyPart& part : key_parts) {
        bool matched = false;
        for (std::size_t i = 0; i < all_patterns.size(); ++i) {
          if (all_patterns[i].first != &part || !(region >> i & 1)) continue;
          parts.push_back(part.patterns[all_patterns[i].second].second);
          where = pattern_pointer(part, part.patterns[all_patterns[i].second].first);
          matched = true;
        }
        if (!matched && part.additional) {
          if (part.additional->is_bool() && !part.additional->boolean) forbidden_region = true;
          parts.push_back(*part.additional);
          if (region == 0) where = pointer_append(part.pointer, "additionalProperties");
        }
      }
      if (forbidden_region) continue;
      StringParts key;
      key.canonical = true;
      for (std::size_t i = 0; i < all_patterns.size(); ++i) {
        const KeyPart& part = *all_patterns[i].first;
        const std::string& pattern_text = part.patterns[all_patterns[i].second].first;
        const std::string translated =
            "\"" +
            translate_pattern(pattern_text, document_.where(pattern_pointer(part, pattern_text))) +
            "\"";
        (region >> i & 1 ? key.positive : key.negative).push_back(translated);
      }
      if (name_parts) {
        key.positive.insert(key.positive.end(), name_parts->positive.begin(),
                            name_parts->positive.end());
        key.negative.insert(key.negative.end(), name_parts->negative.begin(),
                            name_parts->negative.end());
      }
      // Not a known name: a negative lookahead the lexer turns into the product of the names'
      // trie with the key's language, a few states per name character (the names inlined into
      // one regex, each trie node with its own copy of the any-character class, cost the subset
      // construction ten times more on large schemas).
      if (!excluded_regex.empty()) key.negative.push_back(excluded_regex);
      const std::string key_regex = string_regex(key);
      const std::string value_symbol = conjunction_symbol(parts, where);
      if (is_never(value_symbol)) continue;
      const std::string member = nonterminal("member");
      rule(member, {terminal(key_regex, "KEY"), colon(), value_symbol});
      extra_symbols.push_back(member);
      extra_regions.push_back({key, value_symbol});
      // The same region as a witness: its keys within the witnesses' key sets.
      for (std::uint32_t subset = 1; subset < (1u << witnesses.size()); ++subset) {
        StringParts witness_key = key;
        witness_key.canonical = true;
        if (witness_key.positive.empty() && witness_key.negative.empty() && !excluded_regex.empty())
          witness_key.negative.push_back(excluded_regex);
        std::vector<JsonValue> all = parts;
        for (std::size_t j = 0; j < witnesses.size(); ++j) {
          if (!(subset >> j & 1)) continue;
          const Witness& w = witnesses[j];
          std::string names_regex;
          for (const std::string& n : w.names)
            names_regex += (names_regex.empty() ? "" : "|") + json_string_literal_regex(n);
          if (!names_regex.empty()) witness_key.negative.push_back(names_regex);
          for (const std::string& p : w.patterns)
            witness_key.negative.push_back(
                "\"" + translate_pattern(p, document_.where(where_witness)) + "\"");
          if (w.match)
            witness_key.positive.push_back(
                "\"" + translate_pattern(*w.match, document_.where(where_witness)) + "\"");
          all.push_back(w.value);
        }
        const std::string witness_value = value(make_all_of(std::move(all)), where);
        if (is_never(witness_value)) continue;
        const std::string witness_member = nonterminal("witness_member");
        rule(witness_member, {terminal(string_regex(witness_key), "KEY"), colon(), witness_value});
        witness_extras[subset].push_back(witness_member);
      }
    }
  }
  const std::string extra =
      extra_symbols.empty() ? "" : alternatives("extra_member", extra_symbols);
  const std::uint32_t all_witnessed = (1u << witnesses.size()) - 1;

  // The names whose presence the chain tracks, and how members may be ordered.
  bool any_order = options_.property_order == PropertyOrder::kAny;
  std::vector<const NamedMember*> tracked;
  auto track = [&](const NamedMember& member) {
    if (std::find(tracked.begin(), tracked.end(), &member) == tracked.end())
      tracked.push_back(&member);
  };
  std::set<std::string> dependency_names;
  for (const auto& [name, needed] : dependencies) {
    dependency_names.insert(name);
    dependency_names.insert(needed.begin(), needed.end());
  }
  auto track_for_dependencies = [&] {
    for (const auto* list : {&declared_members, &named_members})
      for (const NamedMember& member : *list)
        if (dependency_names.count(member.name)) track(member);
  };
  bool repeatable_optional = false;  // any order above the exact limit: optional names repeat
  if (any_order) {
    const std::size_t names = declared_members.size() + named_members.size();
    if (names <= kExactAnyOrderNames) {
      for (const NamedMember& member : declared_members) track(member);
    } else {
      repeatable_optional = true;
      for (const NamedMember& member : declared_members)
        if (member.required) track(member);
    }
    for (const NamedMember& member : named_members) track(member);
    track_for_dependencies();
    std::string why;
    if (tracked.size() > kTrackedNames)
      why = fmt::format("{} names to track", tracked.size());
    else if (repeatable_optional && min_properties > 0 &&
             min_properties > static_cast<std::size_t>(
                                  std::count_if(tracked.begin(), tracked.end(),
                                                [](const NamedMember* m) { return m->required; })))
      why =
          "minProperties counts distinct names, and optional properties may repeat in any order "
          "above " +
          std::to_string(kExactAnyOrderNames) + " properties";
    else if (repeatable_optional && !dependency_names.empty())
      why = "dependentRequired beside more than " + std::to_string(kExactAnyOrderNames) +
            " properties";
    if (!why.empty()) {
      warn(pointer, fmt::format("properties keep schema order here ({})", why));
      any_order = false;
      repeatable_optional = false;
      tracked.clear();
    }
  }
  if (!any_order) {
    for (const NamedMember& member : named_members) track(member);
    track_for_dependencies();
    if (tracked.size() > kTrackedNames)
      unenforced(pointer_append(pointer, "required"),
                 fmt::format("{} names to track (required outside properties, or in "
                             "dependentRequired); at most {}",
                             tracked.size(), kTrackedNames));
  }
  auto bit_of = [&](const std::string& name) -> std::uint64_t {
    for (std::size_t i = 0; i < tracked.size() && i < kTrackedNames; ++i)
      if (tracked[i]->name == name) return std::uint64_t{1} << i;
    return 0;
  };
  std::uint64_t required_bits = 0;
  for (std::size_t i = 0; i < tracked.size() && i < kTrackedNames; ++i)
    if (tracked[i]->required) required_bits |= std::uint64_t{1} << i;
  // Counting. maxProperties counts occurrences, which bounds the distinct keys too. minProperties
  // counts distinct keys from below: each declared or named member once, all extra members
  // together once (two extra keys may be the same key, and distinct keys are not context-free).
  // With repeatable optional names every required name comes exactly once and there are at least
  // minProperties of them (checked above), so minProperties needs no count.
  const bool has_extras = !extra.empty() || !witness_extras.empty();
  const std::size_t distinct_cap = repeatable_optional ? 0 : min_properties;
  // When the required names and one extra key may not reach minProperties, extra keys count by
  // their initials (ObjectState::initial): sound, and it accepts every object whose extra keys
  // needed for the count begin with distinct letters or digits written in ASCII order.
  const std::size_t required_names =
      static_cast<std::size_t>(std::count_if(declared_members.begin(), declared_members.end(),
                                             [](const NamedMember& m) { return m.required; }) +
                               std::count_if(named_members.begin(), named_members.end(),
                                             [](const NamedMember& m) { return m.required; }));
  // The chain's states multiply by the initials: only where the product of its dimensions stays
  // small (a budget on the grammar, not a guess at the reachable states).
  const double initial_states = std::ldexp(1.0, static_cast<int>(tracked.size())) *
                                static_cast<double>(distinct_cap + 1) *
                                static_cast<double>(max_properties ? *max_properties + 1 : 1) *
                                static_cast<double>(kKeyInitials.size() + 2);
  const bool count_initials =
      !extra.empty() && witness_extras.empty() && distinct_cap > required_names + 1 &&
      distinct_cap <= declared_members.size() + named_members.size() + kKeyInitials.size() &&
      initial_states <= kMaxInitialStates;
  bool extras_distinct = false;  // lenient only: every extra member counted as a new key
  if (has_extras && !count_initials &&
      distinct_cap > declared_members.size() + named_members.size() + 1) {
    unenforced(pointer_append(pointer, "minProperties"),
               fmt::format("minProperties {} needs more than one undeclared key, and undeclared "
                           "keys may repeat one another (a repeated key is one member; distinct "
                           "keys are not context-free): only {} declared names and one undeclared "
                           "key can be counted",
                           min_properties, declared_members.size() + named_members.size()));
    extras_distinct = true;
  }
  auto complete = [&](const ObjectState& state) {
    if ((state.seen & required_bits) != required_bits) return false;
    if (state.witnessed != all_witnessed) return false;
    if (state.distinct < distinct_cap) return false;
    for (const auto& [name, needed] : dependencies) {
      const std::uint64_t bit = bit_of(name);
      if (!(state.seen & bit)) continue;
      for (const std::string& other : needed)
        if (!(state.seen & bit_of(other))) return false;
    }
    return true;
  };

  std::map<ObjectState, std::string> names;
  std::vector<std::pair<ObjectState, std::string>> pending;
  auto state_symbol = [&](const ObjectState& state) {
    auto [it, inserted] = names.try_emplace(state);
    if (inserted) {
      it->second = nonterminal("members");
      pending.emplace_back(state, it->second);
    }
    return it->second;
  };
  auto after_member = [&](ObjectState state, bool new_key = true) -> std::optional<ObjectState> {
    state.first = false;
    state.after_extras = false;
    if (max_properties) {
      if (state.count + 1 > *max_properties) return std::nullopt;
      ++state.count;
    }
    if (new_key && state.distinct < distinct_cap) ++state.distinct;
    return state;
  };
  // An extra member (or a list of them): a new key only if no extra member came before.
  auto after_extra = [&](const ObjectState& state) -> std::optional<ObjectState> {
    std::optional<ObjectState> next = after_member(state, extras_distinct || !state.extra_seen);
    if (next && !extras_distinct && next->distinct < distinct_cap) next->extra_seen = true;
    return next;
  };
  // Extra members split by the initial of their key (count_initials): by_initial[0] holds the
  // keys with another initial or an escaped one, by_initial[i] those beginning with
  // kKeyInitials[i - 1]; up_to[i] derives any of by_initial[0..i] (a member that does not count).
  std::vector<std::string> by_initial, up_to;
  std::string any_extra = extra;
  if (count_initials) {
    const std::string any_char = json_any_char_regex(options_.string_spellings);
    for (std::size_t i = 0; i <= kKeyInitials.size(); ++i) {
      std::vector<std::string> members;
      for (const ExtraRegion& region : extra_regions) {
        StringParts key = region.key;
        key.canonical = true;
        if (i == 0)
          key.negative.push_back(fmt::format("\"[0-9A-Za-z]{}*\"", any_char));
        else
          key.positive.push_back(fmt::format("\"{}{}*\"", kKeyInitials[i - 1], any_char));
        const std::string member = nonterminal("member");
        rule(member, {terminal(string_regex(key), "KEY"), colon(), region.value_symbol});
        members.push_back(member);
      }
      by_initial.push_back(alternatives("extra_member", members));
      const std::string chain = nonterminal("extra_up_to");
      rule(chain, {by_initial.back()});
      if (i > 0) rule(chain, {up_to.back()});
      up_to.push_back(chain);
    }
    any_extra = up_to.back();
  }
  // counted_from(state, k): an extra member counted as a new key, its initial k or later. One
  // symbol per (state, k), each offering initial k and deferring to k + 1, so a state needs one
  // rule for all the initials after its own.
  std::map<std::pair<ObjectState, std::size_t>, std::string> counted_symbols;
  auto counted_from = [&](auto& self, ObjectState base, std::size_t k) -> std::string {
    base.initial = 0;
    auto [it, inserted] = counted_symbols.try_emplace({base, k});
    if (!inserted) return it->second;
    const std::string symbol = nonterminal("counted_extra");
    it->second = symbol;
    if (std::optional<ObjectState> next = after_member(base, true)) {
      next->initial = next->distinct < distinct_cap ? static_cast<std::uint8_t>(k) : 0;
      std::vector<std::string> rhs;
      if (!base.first) rhs.push_back(comma());
      rhs.push_back(by_initial[k]);
      rhs.push_back(state_symbol(*next));
      rule(symbol, rhs);
    }
    if (k < kKeyInitials.size()) rule(symbol, {self(self, base, k + 1)});
    return symbol;
  };
  const std::string object_name = nonterminal("object");
  rule(object_name, {lbrace(), state_symbol(ObjectState{})});
  while (!pending.empty()) {
    const auto [state, name] = pending.back();
    pending.pop_back();
    std::vector<std::string> separator;
    if (!state.first) separator.push_back(comma());
    auto member_rule = [&](const NamedMember& member, ObjectState next) {
      std::vector<std::string> rhs = separator;
      rhs.push_back(terminal(json_string_literal_regex(member.name), "KEY"));
      rhs.push_back(colon());
      rhs.push_back(member.value_symbol);
      rhs.push_back(state_symbol(next));
      rule(name, rhs);
      // The member may also be a witness whose key set holds its name.
      if (witnesses.empty()) return;
      std::uint32_t allowed = 0;
      for (std::size_t j = 0; j < witnesses.size(); ++j)
        if (in_witness_keys(witnesses[j], member.name)) allowed |= 1u << j;
      for (const auto& [subset, symbol] :
           witness_variants(member.value_parts, member.pointer, allowed)) {
        ObjectState witnessed = next;
        witnessed.witnessed |= subset;
        std::vector<std::string> variant = separator;
        variant.insert(variant.end(), {terminal(json_string_literal_regex(member.name), "KEY"),
                                       colon(), symbol, state_symbol(witnessed)});
        rule(name, variant);
      }
    };
    // A long run of optional properties nothing counts or tracks: a left-recursive list
    // (SchemaOptions::optional_list_min_run). run_j derives the run's members up to property j
    // (some of them, in order, comma separated; with a comma before the first one unless the
    // object has no member yet); after run_j, the LR state holds O(1) items, where the chain's
    // state after property j holds one per later property.
    auto listable = [&](std::size_t position) {
      const NamedMember& member = declared_members[position];
      return !member.required && bit_of(member.name) == 0 && witnesses.empty() && !max_properties &&
             distinct_cap == 0;
    };
    std::size_t run_end = state.position;
    if (!any_order && options_.optional_list_min_run > 0)
      while (run_end < declared_members.size() && listable(run_end)) ++run_end;
    if (!any_order && run_end - state.position >= options_.optional_list_min_run &&
        options_.optional_list_min_run > 0) {
      // Items in order, each optional: run_j derives some of items 0..j in order, comma
      // separated, with a comma before the first one when `comma_first`.
      auto optional_list = [&](const std::vector<std::vector<std::string>>& items,
                               bool comma_first) {
        std::string previous;
        for (const std::vector<std::string>& item : items) {
          const std::string list = nonterminal("optional_run");
          std::vector<std::string> first;
          if (comma_first) first.push_back(comma());
          first.insert(first.end(), item.begin(), item.end());
          rule(list, first);
          if (!previous.empty()) {
            rule(list, {previous});
            std::vector<std::string> next = {previous, comma()};
            next.insert(next.end(), item.begin(), item.end());
            rule(list, next);
          }
          previous = list;
        }
        return previous;
      };
      // Two levels: blocks of about sqrt(length) properties, each an optional list, in an
      // optional list of blocks. After a comma the GLR parser then holds a stack per property
      // that may still come in the current block and one per later block, about 2 sqrt(length),
      // instead of one per later property.
      const std::size_t length = run_end - state.position;
      const std::size_t block = std::max<std::size_t>(
          8, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(length)))));
      std::vector<std::vector<std::string>> blocks;
      for (std::size_t begin = state.position; begin < run_end; begin += block) {
        std::vector<std::vector<std::string>> members;
        for (std::size_t j = begin; j < std::min(run_end, begin + block); ++j) {
          const NamedMember& member = declared_members[j];
          // `COLON value` as one symbol per value schema: the LR state after the colon is
          // then one for the whole run, not one per property, and so are the Parser DWA's
          // transitions from every lexer fork inside a string on it.
          auto [value, inserted] = colon_value_.try_emplace(member.value_symbol);
          if (inserted) {
            value->second = nonterminal("member_value");
            rule(value->second, {colon(), member.value_symbol});
          }
          members.push_back(
              {terminal(json_string_literal_regex(member.name), "KEY"), value->second});
        }
        blocks.push_back({optional_list(members, false)});
      }
      const std::string previous = optional_list(blocks, !state.first);
      ObjectState skipped = state;
      skipped.position = run_end;
      ObjectState taken = *after_member(state);  // nothing counted: always a state
      taken.position = run_end;
      rule(name, {previous, state_symbol(taken)});
      rule(name, {state_symbol(skipped)});
      continue;
    }
    if (!any_order && state.position < declared_members.size()) {
      const NamedMember& member = declared_members[state.position];
      const std::uint64_t bit = bit_of(member.name);
      if (std::optional<ObjectState> next = after_member(state)) {
        ++next->position;
        next->seen |= bit;
        member_rule(member, *next);
      }
      if (!member.required) {
        ObjectState skipped = state;
        ++skipped.position;
        rule(name, {state_symbol(skipped)});
      }
      continue;
    }
    // The rest: named members (and in any order every declared one) and extras.
    if (complete(state)) rule(name, {rbrace()});
    auto offer = [&](const NamedMember& member) {
      const std::uint64_t bit = bit_of(member.name);
      if (bit && (state.seen & bit)) return;  // at most once
      std::optional<ObjectState> next = after_member(state);
      if (!next) return;
      next->seen |= bit;
      member_rule(member, *next);
    };
    if (any_order)
      for (const NamedMember& member : declared_members) offer(member);
    for (const NamedMember& member : named_members) offer(member);
    for (const auto& [subset, symbols] : witness_extras) {
      std::optional<ObjectState> next = after_extra(state);
      if (!next) continue;
      next->witnessed |= subset;
      std::vector<std::string> rhs = separator;
      rhs.push_back(alternatives("witness_members", symbols));
      rhs.push_back(state_symbol(*next));
      rule(name, rhs);
    }
    if (!extra.empty() && count_initials && state.distinct < distinct_cap) {
      const std::size_t initial = state.initial;
      if (initial == 0) {
        // The first extra key counts whatever its initial.
        if (std::optional<ObjectState> next = after_member(state, true)) {
          next->initial = next->distinct < distinct_cap ? kOtherInitial : 0;
          std::vector<std::string> rhs = separator;
          rhs.push_back(by_initial[0]);
          rhs.push_back(state_symbol(*next));
          rule(name, rhs);
        }
      } else if (std::optional<ObjectState> next = after_member(state, false)) {
        // Not counted: an initial no later than the last counted one, or another initial.
        std::vector<std::string> rhs = separator;
        rhs.push_back(up_to[std::min<std::size_t>(initial, kKeyInitials.size())]);
        rhs.push_back(state_symbol(*next));
        rule(name, rhs);
      }
      if (initial < kKeyInitials.size())
        rule(name, {counted_from(counted_from, state, initial + 1)});
    } else if (!extra.empty()) {
      if (max_properties || extras_distinct) {
        if (std::optional<ObjectState> next = after_extra(state)) {
          std::vector<std::string> rhs = separator;
          rhs.push_back(any_extra);
          rhs.push_back(state_symbol(*next));
          rule(name, rhs);
        }
      } else if (!state.after_extras) {
        // A left-recursive list keeps LR stacks shallow over many extra members.
        if (extra_list_.count(any_extra) == 0) {
          const std::string list = nonterminal("member_list");
          rule(list, {any_extra});
          rule(list, {list, comma(), any_extra});
          extra_list_[any_extra] = list;
        }
        ObjectState next = *after_extra(state);
        next.after_extras = true;
        std::vector<std::string> rhs = separator;
        rhs.push_back(extra_list_[any_extra]);
        rhs.push_back(state_symbol(next));
        rule(name, rhs);
      }
    }
  }
  return object_name;
}

}  // namespace glrmask::json_schema::detail
