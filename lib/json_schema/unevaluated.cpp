#include "lib/json_schema/unevaluated.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "lib/core/error.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"

namespace glrmask::json_schema {
// A named namespace rather than an anonymous one: the library is compiled as a unity build.
namespace unevaluated_impl {

// Alternatives one schema may split into before the compiler refuses: anyOf branches that may
// match together multiply (2^n sets), and so do parts that each split.
constexpr std::size_t kMaxAlternatives = 256;
// A stack guard (as merge.cpp's): in-place nesting deeper than this is refused.
constexpr int kMaxDepth = 1000;

bool is_true(const JsonValue& schema) {
  return (schema.is_bool() && schema.boolean) || (schema.is_object() && schema.members.empty());
}

bool own_unevaluated(const SchemaDocument& document, const JsonValue& schema) {
  return document.draft() >= Draft::k2019_09 && schema.is_object() &&
         (schema.find("unevaluatedProperties") || schema.find("unevaluatedItems"));
}

// The $ref targets of one walk: those on the current path (not entered again: a loop) and those
// already walked without finding an unevaluated keyword (not walked again: a chain of n levels,
// each two $refs to the level below, would cost 2^n). A target walked with a cut at a loop can
// only have missed what an enclosing target is still looking for, and the walk ends at the
// first find, so the second set stays exact.
struct WalkTrail {
  std::vector<std::string> path;
  std::unordered_set<std::string> without;
};

bool in_place_walk(const SchemaDocument& document, const JsonValue& schema, WalkTrail& refs,
                   int depth) {
  if (!schema.is_object() || depth > kMaxDepth) return false;
  if (own_unevaluated(document, schema)) return true;
  auto walk = [&](const JsonValue& sub) { return in_place_walk(document, sub, refs, depth + 1); };
  for (const auto& [key, value] : schema.members) {
    if (key == "$ref") {
      std::string target;
      try {
        target = document.resolve_ref(value, "");
      } catch (const Error&) {
        continue;  // the merge reports it, with its pointer
      }
      if (refs.without.contains(target) ||
          std::find(refs.path.begin(), refs.path.end(), target) != refs.path.end())
        continue;
      refs.path.push_back(target);
      const bool found = walk(document.at(target));
      refs.path.pop_back();
      if (found) return true;
      refs.without.insert(target);
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf" || key == internal::kAlso) {
      for (const JsonValue& item : value.items)
        if (walk(item)) return true;
    } else if (key == "if" || key == "then" || key == "else") {
      if (walk(value)) return true;
    } else if (key == "dependentSchemas" || key == "dependencies") {
      for (const auto& [name, dependency] : value.members)
        if (walk(dependency)) return true;
    }
  }
  return false;
}

// What an alternative evaluates: a lower bound of what its instances have evaluated, exact for
// the instances the alternative stands for.
struct Evaluated {
  bool all_properties = false;
  std::set<std::string> names;
  std::set<std::string> patterns;
  bool all_items = false;
  std::size_t prefix = 0;
  std::map<std::string, JsonValue> contains;  // by JSON text: items matching one are evaluated

  void normalize() {
    if (all_properties) {
      names.clear();
      patterns.clear();
    }
    if (all_items) {
      prefix = 0;
      contains.clear();
    }
  }
  void unite(const Evaluated& other) {
    all_properties = all_properties || other.all_properties;
    names.insert(other.names.begin(), other.names.end());
    patterns.insert(other.patterns.begin(), other.patterns.end());
    all_items = all_items || other.all_items;
    prefix = std::max(prefix, other.prefix);
    contains.insert(other.contains.begin(), other.contains.end());
    normalize();
  }
  bool operator==(const Evaluated&) const = default;
};

// A conjunction of schemas free of in-place unevaluated keywords, and what it evaluates.
struct Alternative {
  std::vector<JsonValue> parts;
  Evaluated evaluated;
};
using Alternatives = std::vector<Alternative>;

JsonValue conjunction_of(std::vector<JsonValue> parts) {
  std::erase_if(parts, is_true);
  if (parts.empty()) return make_bool(true);
  if (parts.size() == 1) return std::move(parts[0]);
  return make_all_of(std::move(parts));
}

// The schema that holds where one of the alternatives holds.
JsonValue disjunction_of(const Alternatives& alternatives) {
  std::vector<JsonValue> branches;
  for (const Alternative& alternative : alternatives) {
    JsonValue branch = conjunction_of(alternative.parts);
    if (is_true(branch)) return make_bool(true);
    if (std::find(branches.begin(), branches.end(), branch) == branches.end())
      branches.push_back(std::move(branch));
  }
  if (branches.empty()) return make_bool(false);
  if (branches.size() == 1) return std::move(branches[0]);
  return make_object({{"anyOf", make_array(std::move(branches))}});
}

bool same_evaluation(const Alternatives& alternatives) {
  return std::all_of(alternatives.begin(), alternatives.end(), [&](const Alternative& a) {
    return a.evaluated == alternatives.front().evaluated;
  });
}

Alternative product(const Alternative& a, const Alternative& b) {
  Alternative out = a;
  out.parts.insert(out.parts.end(), b.parts.begin(), b.parts.end());
  out.evaluated.unite(b.evaluated);
  return out;
}

class Resolver {
 public:
  Resolver(const SchemaDocument& document, const DisjointProof& disjoint)
      : document_(document), disjoint_(disjoint) {}

  // `schema` with every unevaluated keyword in place resolved; what it evaluates is not needed.
  JsonValue rewrite(const JsonValue& schema, const std::string& pointer) {
    if (!has_unevaluated_in_place(document_, schema)) return schema;
    if (own_unevaluated(document_, schema)) return disjunction_of(alternatives(schema, pointer));
    Guard guard(*this, pointer);
    JsonValue out = make_object();
    std::vector<JsonValue> inlined;  // $ref targets, as allOf conjuncts
    for (const auto& [key, value] : schema.members) {
      const std::string where = pointer_append(pointer, key);
      if (key == "$ref") {
        const std::string target = document_.resolve_ref(value, where);
        if (!has_unevaluated_in_place(document_, document_.at(target))) {
          out.members.emplace_back(key, value);
          continue;
        }
        enter_ref(target, where);
        inlined.push_back(rewrite(document_.at(target), target));
        refs_.pop_back();
      } else if (key == "allOf" || key == "anyOf" || key == "oneOf" || key == internal::kAlso) {
        out.members.emplace_back(key, rewrite_list(value, where));
      } else if (key == "if" || key == "then" || key == "else") {
        out.members.emplace_back(key, rewrite(value, where));
      } else if (key == "dependentSchemas" || key == "dependencies") {
        JsonValue copy = value;
        for (auto& [name, dependency] : copy.members)
          if (!dependency.is_array()) dependency = rewrite(dependency, pointer_append(where, name));
        out.members.emplace_back(key, std::move(copy));
      } else {
        out.members.emplace_back(key, value);
      }
    }
    if (!inlined.empty()) {
      if (inlined.size() == 1 && out.members.empty()) return inlined[0];
      for (auto& [key, value] : out.members)
        if (key == "allOf") {
          value.items.insert(value.items.end(), inlined.begin(), inlined.end());
          inlined.clear();
        }
      if (!inlined.empty()) out.members.emplace_back("allOf", make_array(std::move(inlined)));
    }
    return out;
  }

  // The alternatives of `schema` with what each evaluates. Alternatives that all evaluate the
  // same are folded into one.
  Alternatives alternatives(const JsonValue& schema, const std::string& pointer) {
    if (schema.is_bool()) return schema.boolean ? Alternatives{Alternative{}} : Alternatives{};
    if (!schema.is_object()) document_.fail(pointer, "a schema must be an object or a boolean");
    Guard guard(*this, pointer);
    const JsonValue* unevaluated_properties =
        document_.draft() >= Draft::k2019_09 ? schema.find("unevaluatedProperties") : nullptr;
    const JsonValue* unevaluated_items =
        document_.draft() >= Draft::k2019_09 ? schema.find("unevaluatedItems") : nullptr;
    if (unevaluated_properties)
      keywords_.push_back(pointer_append(pointer, "unevaluatedProperties"));
    if (unevaluated_items) keywords_.push_back(pointer_append(pointer, "unevaluatedItems"));

    JsonValue own = make_object();
    JsonValue dependencies = make_object();  // the array entries of `dependencies`
    // The parts in the order the merge takes them (own keywords, $ref, allOf), which is the
    // order of the merged properties.
    std::vector<Alternatives> components;
    if (const JsonValue* ref = schema.find("$ref")) {
      const std::string where = pointer_append(pointer, "$ref");
      const std::string target = document_.resolve_ref(*ref, where);
      enter_ref(target, where);
      components.push_back(
          settle(alternatives(document_.at(target), target), make_object({{"$ref", *ref}})));
      refs_.pop_back();
    }
    for (const auto& [key, value] : schema.members) {
      if (key != "allOf" && key != internal::kAlso) continue;
      const std::string where = pointer_append(pointer, key);
      if (!value.is_array() || value.items.empty())
        document_.fail(where, "allOf must be a non-empty array of schemas");
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        const std::string at = pointer_append(where, std::to_string(i));
        components.push_back(settle(alternatives(value.items[i], at), value.items[i]));
      }
    }
    for (const auto& [key, value] : schema.members) {
      const std::string where = pointer_append(pointer, key);
      if (key == "$ref" || key == "allOf" || key == internal::kAlso) {
        continue;  // above
      } else if (key == "anyOf") {
        components.push_back(any_of(value, where));
      } else if (key == "oneOf") {
        components.push_back(one_of(value, where));
      } else if (key == "if") {
        components.push_back(condition(schema, pointer));
      } else if (key == "then" || key == "else") {
        continue;  // read with `if`; nothing without it
      } else if (key == "dependentSchemas" || (key == "dependencies" && value.is_object())) {
        for (const auto& [name, dependency] : value.members) {
          if (dependency.is_array())
            dependencies.members.emplace_back(name, dependency);
          else
            components.push_back(dependent(name, dependency, pointer_append(where, name)));
        }
      } else if (key == "unevaluatedProperties" || key == "unevaluatedItems") {
        continue;  // applied below, to each alternative
      } else if (is_validation_keyword(key)) {
        own.members.emplace_back(key, value);
      }
    }
    if (!dependencies.members.empty()) own.members.emplace_back("dependencies", dependencies);

    Alternatives out = {Alternative{{own}, own_evaluated(own)}};
    for (const Alternatives& component : components) {
      Alternatives next;
      for (const Alternative& a : out)
        for (const Alternative& b : component) {
          next.push_back(product(a, b));
          budget(next.size(), pointer);
        }
      out = std::move(next);
    }
    for (Alternative& alternative : out) {
      Evaluated& evaluated = alternative.evaluated;
      if (unevaluated_properties) {
        if (!evaluated.all_properties && !is_true(*unevaluated_properties))
          alternative.parts.push_back(properties_part(evaluated, *unevaluated_properties));
        evaluated.all_properties = true;
      }
      if (unevaluated_items) {
        if (!evaluated.all_items && !is_true(*unevaluated_items))
          alternative.parts.push_back(items_part(evaluated, *unevaluated_items));
        evaluated.all_items = true;
      }
      evaluated.normalize();
    }
    if (unevaluated_properties) keywords_.pop_back();
    if (unevaluated_items) keywords_.pop_back();
    return settle(std::move(out), schema);
  }

 private:
  // Depth guard for the recursion through in-place subschemas.
  struct Guard {
    Guard(Resolver& r, const std::string& pointer) : resolver(r) {
      if (++resolver.depth_ > kMaxDepth)
        resolver.document_.fail(pointer, fmt::format("$ref / allOf nesting is deeper than {} where "
                                                     "unevaluated keywords are resolved",
                                                     kMaxDepth));
    }
    ~Guard() { --resolver.depth_; }
    Resolver& resolver;
  };

  void enter_ref(const std::string& target, const std::string& where) {
    if (std::find(refs_.begin(), refs_.end(), target) != refs_.end()) {
      std::string chain;
      for (const std::string& step : refs_) chain += "#" + step + " -> ";
      document_.fail(where, fmt::format("$ref loops back to a schema applied to the same value "
                                        "(what it evaluates would be its own part): {}#{}",
                                        chain, target));
    }
    refs_.push_back(target);
  }

  void budget(std::size_t count, const std::string& pointer) const {
    if (count <= kMaxAlternatives) return;
    document_.fail(keywords_.empty() ? pointer : keywords_.back(),
                   fmt::format("what is evaluated here depends on more than {} combinations of "
                               "the anyOf / oneOf / if / dependentSchemas branches that match; "
                               "not supported",
                               kMaxAlternatives));
  }

  // Alternatives that all evaluate the same become one: `original` itself when it holds no
  // unevaluated keyword in place (so the compiler meets the schema as written), else their
  // disjunction.
  Alternatives settle(Alternatives alternatives, const JsonValue& original) {
    if (alternatives.size() <= 1 && !has_unevaluated_in_place(document_, original)) {
      if (alternatives.empty()) return alternatives;
      return {Alternative{{original}, alternatives[0].evaluated}};
    }
    if (alternatives.size() <= 1 || !same_evaluation(alternatives)) return alternatives;
    const Evaluated evaluated = alternatives.front().evaluated;
    if (!has_unevaluated_in_place(document_, original)) return {Alternative{{original}, evaluated}};
    return {Alternative{{disjunction_of(alternatives)}, evaluated}};
  }

  JsonValue rewrite_list(const JsonValue& list, const std::string& where) {
    JsonValue copy = list;
    for (std::size_t i = 0; i < copy.items.size(); ++i)
      copy.items[i] = rewrite(copy.items[i], pointer_append(where, std::to_string(i)));
    return copy;
  }

  std::vector<Alternatives> branches(const JsonValue& list, const std::string& where,
                                     const char* keyword) {
    if (!list.is_array() || list.items.empty())
      document_.fail(where, std::string(keyword) + " must be a non-empty array of schemas");
    std::vector<Alternatives> out;
    for (std::size_t i = 0; i < list.items.size(); ++i)
      out.push_back(alternatives(list.items[i], pointer_append(where, std::to_string(i))));
    return out;
  }

  static bool all_same(const std::vector<Alternatives>& lists) {
    const Evaluated* first = nullptr;
    for (const Alternatives& list : lists)
      for (const Alternative& a : list) {
        if (!first) first = &a.evaluated;
        if (!(a.evaluated == *first)) return false;
      }
    return true;
  }
  static Evaluated first_evaluation(const std::vector<Alternatives>& lists) {
    for (const Alternatives& list : lists)
      if (!list.empty()) return list.front().evaluated;
    return {};
  }

  // Every branch that matches evaluates: one alternative per set of branches (with one
  // alternative of each), the conjunction of them. An instance in it may match more branches
  // and so have evaluated more, never less; the set of exactly the matching branches is an
  // alternative too. A set evaluating no more than one of its subsets is left out: every
  // instance in it is in that subset's alternative, which evaluates the same.
  Alternatives any_of(const JsonValue& list, const std::string& where) {
    const std::vector<Alternatives> lists = branches(list, where, "anyOf");
    if (all_same(lists)) {
      if (std::all_of(lists.begin(), lists.end(), [](const Alternatives& l) { return l.empty(); }))
        return {};
      return {Alternative{{make_object({{"anyOf", rewrite_list(list, where)}})},
                          first_evaluation(lists)}};
    }
    Alternatives out;
    std::vector<const Alternative*> chosen;
    std::size_t visited = 0;
    auto minimal = [&]() {
      Evaluated all;
      for (const Alternative* a : chosen) all.unite(a->evaluated);
      for (std::size_t skip = 0; skip < chosen.size(); ++skip) {
        Evaluated rest;
        for (std::size_t k = 0; k < chosen.size(); ++k)
          if (k != skip) rest.unite(chosen[k]->evaluated);
        if (chosen.size() > 1 && rest == all) return false;
      }
      return true;
    };
    auto walk = [&](auto&& self, std::size_t i) -> void {
      if (i == lists.size()) {
        budget(++visited / 16, where);
        if (chosen.empty() || !minimal()) return;
        Alternative combined;
        for (const Alternative* a : chosen) combined = product(combined, *a);
        out.push_back(std::move(combined));
        budget(out.size(), where);
        return;
      }
      self(self, i + 1);
      for (const Alternative& a : lists[i]) {
        chosen.push_back(&a);
        self(self, i + 1);
        chosen.pop_back();
      }
    };
    walk(walk, 0);
    return out;
  }

  // Exactly one branch matches, and it alone evaluates: each alternative of branch i with the
  // complement of every other branch (but those a proof shows it cannot overlap).
  Alternatives one_of(const JsonValue& list, const std::string& where) {
    const std::vector<Alternatives> lists = branches(list, where, "oneOf");
    if (all_same(lists)) {
      if (std::all_of(lists.begin(), lists.end(), [](const Alternatives& l) { return l.empty(); }))
        return {};
      return {Alternative{{make_object({{"oneOf", rewrite_list(list, where)}})},
                          first_evaluation(lists)}};
    }
    Alternatives out;
    for (std::size_t i = 0; i < lists.size(); ++i) {
      for (const Alternative& a : lists[i]) {
        Alternative exact = a;
        const JsonValue self = conjunction_of(a.parts);
        for (std::size_t j = 0; j < lists.size(); ++j) {
          if (j == i || lists[j].empty()) continue;
          if (disjoint_ && disjoint_(self, list.items[j])) continue;
          exact.parts.push_back(make_object({{"not", list.items[j]}}));
        }
        out.push_back(std::move(exact));
        budget(out.size(), where);
      }
    }
    return out;
  }

  // if passes: if and then evaluate; if fails: else evaluates. Without then / else: true.
  Alternatives condition(const JsonValue& schema, const std::string& pointer) {
    const JsonValue& test = *schema.find("if");
    const JsonValue* then = schema.find("then");
    const JsonValue* otherwise = schema.find("else");
    const Alternatives tests = alternatives(test, pointer_append(pointer, "if"));
    const Alternatives thens =
        then ? alternatives(*then, pointer_append(pointer, "then")) : Alternatives{Alternative{}};
    const Alternatives elses = otherwise ? alternatives(*otherwise, pointer_append(pointer, "else"))
                                         : Alternatives{Alternative{}};
    Alternatives passed;
    for (const Alternative& a : tests)
      for (const Alternative& b : thens) {
        passed.push_back(product(a, b));
        budget(passed.size(), pointer);
      }
    if (all_same({passed, elses})) {
      JsonValue written = make_object({{"if", rewrite(test, pointer_append(pointer, "if"))}});
      if (then)
        written.members.emplace_back("then", rewrite(*then, pointer_append(pointer, "then")));
      if (otherwise)
        written.members.emplace_back("else", rewrite(*otherwise, pointer_append(pointer, "else")));
      return {Alternative{{written}, first_evaluation({passed, elses})}};
    }
    Alternatives out = passed;
    for (const Alternative& b : elses) {
      Alternative failed = b;
      failed.parts.insert(failed.parts.begin(), make_object({{"not", test}}));
      out.push_back(std::move(failed));
      budget(out.size(), pointer);
    }
    return out;
  }

  // {name: D}: name absent (nothing evaluated), or name present and D (D evaluates).
  Alternatives dependent(const std::string& name, const JsonValue& dependency,
                         const std::string& where) {
    const Alternatives present = alternatives(dependency, where);
    if (std::all_of(present.begin(), present.end(),
                    [](const Alternative& a) { return a.evaluated == Evaluated{}; }))
      return {Alternative{
          {make_object({{"dependentSchemas", make_object({{name, rewrite(dependency, where)}})}})},
          Evaluated{}}};
    Alternatives out = {
        Alternative{{make_object({{internal::kForbidden, make_array({make_string(name)})}})}, {}}};
    for (const Alternative& a : present) {
      Alternative with = a;
      with.parts.insert(with.parts.begin(),
                        make_object({{"type", make_string("object")},
                                     {"required", make_array({make_string(name)})}}));
      out.push_back(std::move(with));
    }
    return out;
  }

  // What a schema object's own keywords evaluate (the draft's annotation keywords).
  Evaluated own_evaluated(const JsonValue& own) const {
    Evaluated e;
    if (const JsonValue* properties = own.find("properties"))
      for (const auto& [name, schema] : properties->members) e.names.insert(name);
    if (const JsonValue* patterns = own.find("patternProperties"))
      for (const auto& [pattern, schema] : patterns->members) e.patterns.insert(pattern);
    if (own.find("additionalProperties")) e.all_properties = true;
    if (const JsonValue* parts = own.find(internal::kKeyParts))
      for (const JsonValue& entry : parts->items) {
        if (const JsonValue* patterns = entry.find("patternProperties"))
          for (const auto& [pattern, schema] : patterns->members) e.patterns.insert(pattern);
        if (entry.find("additionalProperties")) e.all_properties = true;
      }
    const JsonValue* items = own.find("items");
    const JsonValue* prefix = own.find("prefixItems");
    if (document_.draft() >= Draft::k2020_12 && prefix && prefix->is_array()) {
      e.prefix = prefix->items.size();
      if (items) e.all_items = true;
    } else if (items && items->is_array()) {
      e.prefix = items->items.size();
      if (own.find("additionalItems")) e.all_items = true;
    } else if (items) {
      e.all_items = true;
    }
    if (document_.draft() >= Draft::k2020_12)
      if (const JsonValue* contains = own.find("contains"))
        e.contains.emplace(to_json_text(*contains), *contains);
    e.normalize();
    return e;
  }

  // "A member none of these names and patterns covers satisfies S", as one schema object.
  static JsonValue properties_part(const Evaluated& e, const JsonValue& schema) {
    JsonValue part = make_object();
    if (!e.names.empty()) {
      JsonValue names = make_object();
      for (const std::string& name : e.names) names.members.emplace_back(name, make_bool(true));
      part.members.emplace_back("properties", std::move(names));
    }
    if (!e.patterns.empty()) {
      JsonValue patterns = make_object();
      for (const std::string& p : e.patterns) patterns.members.emplace_back(p, make_bool(true));
      part.members.emplace_back("patternProperties", std::move(patterns));
    }
    part.members.emplace_back("additionalProperties", schema);
    return part;
  }

  // "An item past the prefix that matches none of the contains satisfies S".
  static JsonValue items_part(const Evaluated& e, const JsonValue& schema) {
    std::vector<JsonValue> options;
    if (!(schema.is_bool() && !schema.boolean)) options.push_back(schema);
    for (const auto& [text, contains] : e.contains) options.push_back(contains);
    JsonValue rest = options.empty()       ? make_bool(false)
                     : options.size() == 1 ? options[0]
                                           : make_object({{"anyOf", make_array(options)}});
    JsonValue part = make_object();
    if (e.prefix > 0)
      part.members.emplace_back("prefixItems",
                                make_array(std::vector<JsonValue>(e.prefix, make_bool(true))));
    part.members.emplace_back("items", std::move(rest));
    return part;
  }

  const SchemaDocument& document_;
  const DisjointProof& disjoint_;
  std::vector<std::string> refs_;      // $ref targets being resolved in place (a loop: an error)
  std::vector<std::string> keywords_;  // the unevaluated keywords being resolved, for messages
  int depth_ = 0;
};

}  // namespace unevaluated_impl

bool has_unevaluated_in_place(const SchemaDocument& document, const JsonValue& schema) {
  if (document.draft() < Draft::k2019_09) return false;
  unevaluated_impl::WalkTrail refs;
  return unevaluated_impl::in_place_walk(document, schema, refs, 0);
}

JsonValue resolve_unevaluated(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer, const DisjointProof& disjoint) {
  unevaluated_impl::Resolver resolver(document, disjoint);
  return resolver.rewrite(schema, pointer);
}

}  // namespace glrmask::json_schema
