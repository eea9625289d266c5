// Arrays: items, prefixItems (and draft 4's items array with additionalItems), minItems,
// maxItems, contains (with minContains / maxContains), uniqueItems.
//
// Without contains or uniqueItems: one rule per position up to max(prefix, minItems) or maxItems,
// then a left-recursive list (left recursion keeps LR stacks shallow). With them, the array is a
// chain of states (items so far, contains counts, the values used), each a nonterminal; the
// positions of a prefix (prefixItems) are counted exactly, each with its own schema:
//  - contains C: an item matching C may count (the grammar is ambiguous there, which is exact for
//    "at least"); with maxContains every item is either in C (counted) or in not C, which needs
//    the complement of C;
//  - uniqueItems: exact when the items range over a finite set of values (an enum, booleans,
//    null, a small integer range): the state is the set of values used. Over an infinite set it
//    is not context-free and is refused.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "lib/core/error.h"
#include "lib/json_schema/exact_decimal.h"
#include "lib/json_schema/instance_check.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/schema_compiler.h"

namespace glrmask::json_schema::detail {

namespace {

// Values an item schema can take when they are finitely many (and at most `limit`).
std::optional<std::vector<JsonValue>> finite_values(const SchemaDocument& document,
                                                    const JsonValue& schema,
                                                    const std::string& pointer, std::size_t limit) {
  const JsonValue flat = flatten_conjunction(document, schema, pointer);
  if (flat.is_bool()) {
    if (!flat.boolean) return std::vector<JsonValue>{};
    return std::nullopt;
  }
  for (const auto& [key, value] : flat.members)
    if (is_combinator_keyword(key)) return std::nullopt;
  std::vector<JsonValue> candidates;
  if (const JsonValue* constant = flat.find("const")) {
    candidates = {*constant};
  } else if (const JsonValue* values = flat.find("enum"); values && values->is_array()) {
    candidates = values->items;
  } else {
    const unsigned types = schema_types(flat);
    if (types & ~static_cast<unsigned>(kNull | kBoolean | kInteger | kNumber)) return std::nullopt;
    if (types & kNull) candidates.push_back(JsonValue{});
    if (types & kBoolean) {
      candidates.push_back(make_bool(true));
      candidates.push_back(make_bool(false));
    }
    if (types & (kInteger | kNumber)) {
      if (types & kNumber) return std::nullopt;  // fractions: infinitely many
      // Integers between two bounds.
      const JsonValue* min = flat.find("minimum");
      const JsonValue* max = flat.find("maximum");
      if (!min || !max || !min->is_number() || !max->is_number()) return std::nullopt;
      const double lo = std::ceil(min->number);
      const double hi = std::floor(max->number);
      if (hi - lo + 1 > static_cast<double>(limit)) return std::nullopt;
      for (double v = lo; v <= hi; ++v) candidates.push_back(make_number(v));
    }
  }
  std::vector<JsonValue> out;
  for (const JsonValue& candidate : candidates) {
    if (!instance_validates(document, flat, candidate, pointer)) continue;
    if (std::any_of(out.begin(), out.end(),
                    [&](const JsonValue& v) { return json_equal(v, candidate); }))
      continue;
    out.push_back(candidate);
    if (out.size() > limit) return std::nullopt;
  }
  return out;
}

}  // namespace

std::string SchemaCompiler::array(const JsonValue& schema, const std::string& pointer) {
  std::vector<std::pair<const JsonValue*, std::string>> prefix;
  const JsonValue true_schema = make_bool(true);
  const JsonValue* rest = &true_schema;
  std::string rest_pointer = pointer;
  const JsonValue* items = schema.find("items");
  if (const JsonValue* prefix_items = schema.find("prefixItems")) {
    if (!prefix_items->is_array())
      document_.fail(pointer_append(pointer, "prefixItems"), "prefixItems must be an array");
    for (std::size_t i = 0; i < prefix_items->items.size(); ++i)
      prefix.emplace_back(
          &prefix_items->items[i],
          pointer_append(pointer_append(pointer, "prefixItems"), std::to_string(i)));
    if (items) {
      rest = items;
      rest_pointer = pointer_append(pointer, "items");
    }
  } else if (items && items->is_array()) {  // draft 4 tuple form
    for (std::size_t i = 0; i < items->items.size(); ++i)
      prefix.emplace_back(&items->items[i],
                          pointer_append(pointer_append(pointer, "items"), std::to_string(i)));
    if (const JsonValue* additional = schema.find("additionalItems")) {
      rest = additional;
      rest_pointer = pointer_append(pointer, "additionalItems");
    }
  } else if (items) {
    rest = items;
    rest_pointer = pointer_append(pointer, "items");
  }
  const std::size_t min_items = count(schema, pointer, "minItems").value_or(0);
  std::optional<std::size_t> max_items = count(schema, pointer, "maxItems");
  const bool rest_forbidden = rest->is_bool() && !rest->boolean;
  if (rest_forbidden && (!max_items || *max_items > prefix.size())) max_items = prefix.size();
  if (max_items && min_items > *max_items) return "";

  // contains, as (schema, at least, at most); items before position `from` do not count for it
  // (internal::kContainsFrom, the complement of items after a prefix).
  struct Contains {
    JsonValue schema;
    std::size_t at_least = 1;
    std::optional<std::size_t> at_most;
    std::string pointer;
    std::size_t from = 0;
  };
  std::vector<Contains> contains;
  auto counted = [&](const JsonValue& holder, const JsonValue& c) {
    Contains entry{c, 1, std::nullopt, pointer_append(pointer, "contains")};
    if (holder.find("minContains"))
      entry.at_least = count(holder, pointer, "minContains").value_or(1);
    entry.at_most = count(holder, pointer, "maxContains");
    contains.push_back(std::move(entry));
  };
  if (const JsonValue* c = schema.find("contains")) counted(schema, *c);
  if (const JsonValue* list = schema.find(internal::kContains))
    for (const JsonValue& c : list->items)
      contains.push_back({c, 1, std::nullopt, pointer_append(pointer, "contains")});
  if (const JsonValue* list = schema.find(internal::kCountedContains))
    for (const JsonValue& entry : list->items) counted(entry, *entry.find("contains"));
  std::size_t positions = prefix.size();  // positions the chain tells apart
  if (const JsonValue* list = schema.find(internal::kContainsFrom))
    for (const JsonValue& entry : list->items) {
      Contains c{*entry.find("schema"), 1, std::nullopt, pointer,
                 static_cast<std::size_t>(entry.find("from")->number)};
      positions = std::max(positions, c.from);
      contains.push_back(std::move(c));
    }
  std::erase_if(contains, [](const Contains& c) { return c.at_least == 0 && !c.at_most; });
  const JsonValue* unique = schema.find("uniqueItems");
  const bool unique_items =
      unique && unique->is_bool() && unique->boolean && (!max_items || *max_items > 1);

  // name -> separator rest (, rest)* ']', the list of rests made once into `list`: left-recursive,
  // keeps LR stacks shallow.
  auto rule_item_list = [&](const std::string& name, std::vector<std::string> rhs,
                            const std::string& rest_symbol, std::string& list) {
    if (list.empty()) {
      list = nonterminal("item_list");
      rule(list, {rest_symbol});
      rule(list, {list, comma(), rest_symbol});
    }
    rhs.push_back(list);
    rhs.push_back(rsqb());
    rule(name, std::move(rhs));
  };
  if (contains.empty() && !unique_items) {
    std::vector<std::string> element_symbols;
    for (const auto& [item, where] : prefix) element_symbols.push_back(value(*item, where));
    const std::string rest_symbol = rest_forbidden ? "" : value(*rest, rest_pointer);
    auto element = [&](std::size_t index) {
      return index < element_symbols.size() ? element_symbols[index] : rest_symbol;
    };
    // tail[j]: the elements at positions j, j+1, ... and the closing bracket.
    const std::string close = rsqb();
    std::string star;  // rest (, rest)* : left-recursive, keeps LR stacks shallow
    const std::size_t limit = max_items ? *max_items : std::max(prefix.size(), min_items);
    std::vector<std::string> tail(limit + 1);
    for (std::size_t j = limit + 1; j-- > 0;) {
      const std::string name = nonterminal("items");
      tail[j] = name;
      const std::vector<std::string> separator =
          j == 0 ? std::vector<std::string>{} : std::vector<std::string>{comma()};
      if (j >= min_items) rule(name, {close});
      if (j == limit) {
        if (!max_items && !rest_symbol.empty()) rule_item_list(name, separator, rest_symbol, star);
        continue;
      }
      const std::string symbol = element(j);
      if (symbol.empty()) continue;
      std::vector<std::string> rhs = separator;
      rhs.push_back(symbol);
      rhs.push_back(tail[j + 1]);
      rule(name, rhs);
    }
    const std::string name = nonterminal("array");
    rule(name, {lsqb(), tail[0]});
    return name;
  }

  if (positions > 0 && unique_items) {
    unenforced(pointer_append(pointer, "uniqueItems"),
               "uniqueItems beside prefixItems is not supported");
    JsonValue without = schema;
    std::erase_if(without.members, [](const auto& m) { return m.first == "uniqueItems"; });
    return array(without, pointer);
  }
  // Item alternatives: (symbol, contains constraints it counts for, value index for uniqueness).
  struct ItemKind {
    std::string symbol;
    unsigned counts = 0;  // bit k: counts for contains[k]
    int value = -1;       // uniqueItems: the index of its value
  };
  std::vector<ItemKind> kinds;
  std::vector<std::vector<ItemKind>> prefix_kinds;  // per prefixItems position
  std::size_t values = 0;
  if (unique_items) {
    const std::optional<std::vector<JsonValue>> finite =
        finite_values(document_, *rest, rest_pointer, 12);
    if (!finite) {
      unenforced(pointer_append(pointer, "uniqueItems"),
                 "uniqueItems over items that are not drawn from a finite set of at most 12 values "
                 "(distinct items over an infinite set are not context-free)");
      JsonValue without = schema;
      std::erase_if(without.members, [](const auto& m) { return m.first == "uniqueItems"; });
      return array(without, pointer);
    }
    values = finite->size();
    if (!max_items || *max_items > values) max_items = values;
    if (min_items > *max_items) return "";
    for (std::size_t v = 0; v < finite->size(); ++v) {
      unsigned counts = 0;
      for (std::size_t k = 0; k < contains.size(); ++k)
        if (instance_validates(document_, contains[k].schema, (*finite)[v], contains[k].pointer))
          counts |= 1u << k;
      // The items' schema is not at hand here: draft 4 spells integers plainly (literal()).
      kinds.push_back({literal((*finite)[v], pointer, document_.draft() == Draft::k4,
                               document_.draft() == Draft::k4),
                       counts, static_cast<int>(v)});
    }
  } else {
    if (contains.size() > 4)
      unenforced(pointer_append(pointer, "contains"), "more than 4 contains constraints");
    // Every subset of the contains constraints an item may count for; with an upper bound the
    // item counts exactly for the ones it matches (the others through their complements).
    auto kinds_of = [&](const JsonValue& item, const std::string& where, std::size_t position) {
      std::vector<ItemKind> out;
      for (unsigned subset = 0; subset < (1u << contains.size()); ++subset) {
        bool counts = true;
        for (std::size_t k = 0; k < contains.size(); ++k)
          if ((subset & (1u << k)) && position < contains[k].from) counts = false;
        if (!counts) continue;
        std::vector<JsonValue> parts = {item};
        for (std::size_t k = 0; k < contains.size(); ++k) {
          if (subset & (1u << k))
            parts.push_back(contains[k].schema);
          else if (contains[k].at_most)
            parts.push_back(make_object({{"not", contains[k].schema}}));
        }
        out.push_back(
            {value(parts.size() == 1 ? parts[0] : make_all_of(parts), where), subset, -1});
      }
      return out;
    };
    kinds = kinds_of(*rest, rest_pointer, positions);
    // Beside prefixItems the first positions take their own schemas, and an item before a
    // contains' `from` does not count for it (the state counts items up to `positions`, so the
    // position is known there).
    for (std::size_t i = 0; i < positions; ++i)
      prefix_kinds.push_back(i < prefix.size() ? kinds_of(*prefix[i].first, prefix[i].second, i)
                                               : kinds_of(*rest, rest_pointer, i));
  }
  // The chain of states: (items, counts per contains, values used).
  struct State {
    std::size_t items = 0;
    std::vector<std::size_t> counts;
    std::uint64_t used = 0;
    auto operator<=>(const State&) const = default;
  };
  const std::size_t item_cap = std::max(max_items ? *max_items : min_items, positions);
  auto satisfied = [&](const State& s) {
    if (s.items < min_items) return false;
    for (std::size_t k = 0; k < contains.size(); ++k)
      if (s.counts[k] < contains[k].at_least) return false;
    return true;
  };
  // Saturated: nothing left to count, so the rest is a plain list.
  auto saturated = [&](const State& s) {
    if (max_items || unique_items || !satisfied(s) || s.items < positions) return false;
    return std::none_of(contains.begin(), contains.end(),
                        [](const Contains& c) { return c.at_most; });
  };
  std::map<State, std::string> names;
  std::vector<std::pair<State, std::string>> pending;
  auto state_symbol = [&](const State& state) {
    auto [it, inserted] = names.try_emplace(state);
    if (inserted) {
      it->second = nonterminal("items");
      pending.emplace_back(state, it->second);
    }
    return it->second;
  };
  State start;
  start.counts.assign(contains.size(), 0);
  const std::string array_name = nonterminal("array");
  rule(array_name, {lsqb(), state_symbol(start)});
  const std::string rest_symbol = value(*rest, rest_pointer);
  std::string star;
  while (!pending.empty()) {
    const auto [state, name] = pending.back();
    pending.pop_back();
    std::vector<std::string> separator;
    if (state.items > 0) separator.push_back(comma());
    if (satisfied(state)) rule(name, {rsqb()});
    if (saturated(state)) {
      rule_item_list(name, separator, rest_symbol, star);
      continue;
    }
    if (max_items && state.items >= *max_items) continue;
    for (const ItemKind& kind :
         state.items < prefix_kinds.size() ? prefix_kinds[state.items] : kinds) {
      if (kind.value >= 0 && (state.used >> kind.value & 1)) continue;
      State next = state;
      next.items = std::min(state.items + 1, std::max<std::size_t>(item_cap, 1));
      bool allowed = true;
      for (std::size_t k = 0; k < contains.size(); ++k) {
        if (!(kind.counts & (1u << k))) continue;
        const std::size_t cap =
            contains[k].at_most ? *contains[k].at_most + 1 : contains[k].at_least;
        if (contains[k].at_most && state.counts[k] + 1 > *contains[k].at_most) allowed = false;
        next.counts[k] = std::min(state.counts[k] + 1, cap);
      }
      if (!allowed) continue;
      if (kind.value >= 0) next.used |= std::uint64_t{1} << kind.value;
      std::vector<std::string> rhs = separator;
      rhs.push_back(kind.symbol);
      rhs.push_back(state_symbol(next));
      rule(name, rhs);
    }
  }
  return array_name;
}

}  // namespace glrmask::json_schema::detail
