#include "lib/json_schema/compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "lib/core/error.h"
#include "lib/grammar/grammar_builder.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/number_regex.h"
#include "lib/json_schema/pattern.h"
#include "lib/json_schema/regex.h"

namespace glrmask::json_schema {
namespace {

using Kind = JsonValue::Kind;

// The seven JSON Schema types, as bits.
enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kString = 16,
  kNumber = 32,
  kInteger = 64,
  kAllTypes = 127,
};

// Keywords that cannot be enforced by a context-free grammar of this shape: refused unless
// lenient. (They are checked only where they constrain something: uniqueItems false, say, is not.)
bool is_unenforceable(std::string_view key, const JsonValue& value) {
  if (key == "uniqueItems") return value.is_bool() && value.boolean;
  // minProperties, multipleOf and not are enforced where they can be (object(), number(),
  // negation()) and refused there otherwise.
  return key == "maxProperties" || key == "dependencies" || key == "dependentRequired" ||
         key == "dependentSchemas" || key == "if" || key == "contains" || key == "minContains" ||
         key == "maxContains" || key == "propertyNames" || key == "unevaluatedProperties" ||
         key == "unevaluatedItems" || key == "$dynamicRef" || key == "$recursiveRef";
}

// Property names a `not {"required": [name]}` forbids, carried to object() inside the merged
// schema under a key no schema can spell (JSON object keys are text; this one holds a NUL).
const std::string kForbidden("\0forbidden", 10);

class Compiler {
 public:
  Compiler(const JsonValue& root, const std::string& source_name, const SchemaOptions& options)
      : document_(root, source_name),
        options_(options),
        builder_(source_name),
        source_name_(source_name) {}

  Grammar compile() && {
    const std::string top = value(document_.root(), "");
    rule("start", {top});
    builder_.add_nonterminal(Nonterminal{"start", {}, false, {}});
    if (options_.whitespace == Whitespace::kFlexible) {
      Terminal whitespace;
      whitespace.name = "WS";
      whitespace.pattern = R"([ \t\n\r]+)";
      whitespace.ignored = true;
      builder_.add_terminal(whitespace);
    }
    for (const Diagnostic& warning : warnings_) builder_.add_warning(warning);
    try {
      return std::move(builder_).build("start");
    } catch (const GrammarError& e) {
      // The builder removes what derives nothing; when that is the start, no value validates.
      document_.fail("", fmt::format("no JSON value satisfies the schema ({})", e.message()));
    }
  }

 private:
  // ---- symbols ---------------------------------------------------------------------------------

  std::string terminal(const std::string& pattern, std::string_view hint) {
    auto found = terminal_by_pattern_.find(pattern);
    if (found != terminal_by_pattern_.end()) return found->second;
    const std::string name = fmt::format("{}_{}", hint, terminal_by_pattern_.size());
    Terminal t;
    t.name = name;
    t.pattern = pattern;
    t.origin = SourceLocation{source_name_, 0, 0};
    builder_.add_terminal(t);
    terminal_by_pattern_.emplace(pattern, name);
    return name;
  }

  std::string punctuation(const std::string& name, const std::string& text) {
    if (!builder_.has_symbol(name)) {
      Terminal t;
      t.name = name;
      t.pattern = escape_literal(text);
      t.is_literal = true;
      t.literal = text;
      t.origin = SourceLocation{source_name_, 0, 0};
      builder_.add_terminal(t);
    }
    return name;
  }

  std::string lbrace() { return punctuation("LBRACE", "{"); }
  std::string rbrace() { return punctuation("RBRACE", "}"); }
  std::string lsqb() { return punctuation("LSQB", "["); }
  std::string rsqb() { return punctuation("RSQB", "]"); }
  std::string comma() {
    return punctuation("COMMA", options_.whitespace == Whitespace::kDefault ? ", " : ",");
  }
  std::string colon() {
    return punctuation("COLON", options_.whitespace == Whitespace::kDefault ? ": " : ":");
  }
  std::string null_symbol() { return punctuation("NULL", "null"); }
  std::string true_symbol() { return punctuation("TRUE", "true"); }
  std::string false_symbol() { return punctuation("FALSE", "false"); }

  std::string nonterminal(std::string_view hint) {
    const std::string name = fmt::format("{}_{}", hint, nonterminal_count_++);
    builder_.add_nonterminal(Nonterminal{name, {}, true, SourceLocation{source_name_, 0, 0}});
    return name;
  }

  // A nonterminal with no rules: the builder drops it and every rule that uses it.
  std::string never() {
    if (never_.empty()) never_ = nonterminal("never");
    return never_;
  }

  void rule(const std::string& lhs, std::vector<std::string> rhs) {
    RuleSpec spec;
    spec.lhs = lhs;
    spec.rhs = std::move(rhs);
    builder_.add_rule(std::move(spec));
  }

  std::string alternatives(std::string_view hint, const std::vector<std::string>& symbols) {
    if (symbols.empty()) return never();
    if (symbols.size() == 1) return symbols[0];
    const std::string name = nonterminal(hint);
    for (const std::string& symbol : symbols) rule(name, {symbol});
    return name;
  }

  // ---- refusals
  // ----------------------------------------------------------------------------------

  // A keyword that is not enforced: an error, or under `lenient` a warning.
  void unenforced(const std::string& pointer, const std::string& message) {
    if (!options_.lenient) document_.fail(pointer, message + " (--json-schema-lenient ignores it)");
    warnings_.push_back(Diagnostic{SourceLocation{document_.where(pointer), 0, 0},
                                   message + ": ignored (lenient), the grammar accepts more"});
  }

  // ---- generic JSON ----------------------------------------------------------------------------

  std::string any_value() {
    if (!any_value_.empty()) return any_value_;
    any_value_ = nonterminal("json_value");
    const std::string object = nonterminal("json_object");
    const std::string members = nonterminal("json_members");
    const std::string array = nonterminal("json_array");
    const std::string items = nonterminal("json_items");
    const std::string string = terminal(any_json_string_regex(), "STRING");
    for (const std::string& symbol :
         {object, array, string, terminal(any_json_number_regex(), "NUMBER"), true_symbol(),
          false_symbol(), null_symbol()})
      rule(any_value_, {symbol});
    rule(object, {lbrace(), rbrace()});
    rule(object, {lbrace(), members, rbrace()});
    rule(members, {string, colon(), any_value_});
    rule(members, {members, comma(), string, colon(), any_value_});
    rule(array, {lsqb(), rsqb()});
    rule(array, {lsqb(), items, rsqb()});
    rule(items, {any_value_});
    rule(items, {items, comma(), any_value_});
    return any_value_;
  }

  // ---- schemas ---------------------------------------------------------------------------------

  // The symbol deriving exactly the JSON texts that validate against `schema`.
  std::string value(const JsonValue& schema, const std::string& pointer) {
    if (schema.is_bool()) return schema.boolean ? any_value() : never();
    if (!schema.is_object()) document_.fail(pointer, "a schema must be an object or a boolean");
    // Identical schemas (and every $ref to one place) share one nonterminal, which also makes
    // recursion through $ref finite: the nonterminal exists before its rules are made.
    const std::string key = to_json_text(schema);
    auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    const std::string name = nonterminal("value");
    memo_.emplace(key, name);
    rule(name, {conjunction(schema, pointer)});
    return name;
  }

  std::string conjunction(const JsonValue& schema, const std::string& pointer) {
    JsonValue merged = flatten_conjunction(document_, schema, pointer);
    if (merged.is_bool()) return merged.boolean ? any_value() : never();
    if (merged.find("not") && !negation(merged, pointer)) return never();
    for (const auto& [key, keyword] : merged.members)
      if (is_unenforceable(key, keyword))
        unenforced(pointer_append(pointer, key),
                   fmt::format("keyword \"{}\" is not supported", key));
    const JsonValue* any_of = merged.find("anyOf");
    const JsonValue* one_of = merged.find("oneOf");
    if (!any_of && !one_of) return plain(merged, pointer);
    const std::string keyword = any_of ? "anyOf" : "oneOf";
    const JsonValue& branches = any_of ? *any_of : *one_of;
    const std::string where = pointer_append(pointer, keyword);
    if (!branches.is_array() || branches.items.empty())
      document_.fail(where, keyword + " must be a non-empty array of schemas");
    // The keywords beside anyOf apply to every branch: (base ∧ (b1 ∨ b2)) = (base ∧ b1) ∨ ...
    JsonValue base;
    base.kind = Kind::kObject;
    for (const auto& [key, keyword_value] : merged.members)
      if (key != "anyOf" && key != "oneOf") base.members.emplace_back(key, keyword_value);
    std::vector<JsonValue> flattened;
    std::vector<std::string> symbols;
    for (std::size_t i = 0; i < branches.items.size(); ++i) {
      const std::string branch_pointer = pointer_append(where, std::to_string(i));
      JsonValue both;
      both.kind = Kind::kObject;
      JsonValue list;
      list.kind = Kind::kArray;
      list.items = {base, branches.items[i]};
      if (base.members.empty()) list.items.erase(list.items.begin());
      both.members.emplace_back("allOf", std::move(list));
      flattened.push_back(flatten_conjunction(document_, both, branch_pointer));
      symbols.push_back(flattened.back().is_bool() && !flattened.back().boolean
                            ? never()
                            : value(flattened.back(), branch_pointer));
    }
    if (one_of) check_disjoint(flattened, where);
    std::vector<std::string> live;
    for (const std::string& symbol : symbols)
      if (symbol != never_ || never_.empty()) live.push_back(symbol);
    return alternatives("alternatives", live);
  }

  // ---- oneOf -----------------------------------------------------------------------------------

  unsigned types_of(const JsonValue& schema) const {
    if (schema.is_bool()) return schema.boolean ? kAllTypes : 0u;
    unsigned types = kAllTypes;
    if (const JsonValue* type = schema.find("type")) types = type_bits(*type);
    if (const JsonValue* values = schema.find("enum")) {
      unsigned of_values = 0;
      for (const JsonValue& item : values->items) of_values |= bits_of_value(item);
      types &= of_values;
    }
    if (const JsonValue* constant = schema.find("const")) types &= bits_of_value(*constant);
    if (types & kNumber) types |= kInteger;
    return types;
  }

  static unsigned bits_of_value(const JsonValue& item) {
    switch (item.kind) {
      case Kind::kNull:
        return kNull;
      case Kind::kBool:
        return kBoolean;
      case Kind::kNumber:
        return kNumber | kInteger;
      case Kind::kString:
        return kString;
      case Kind::kArray:
        return kArray;
      case Kind::kObject:
        return kObject;
    }
    return 0;
  }

  unsigned type_bits(const JsonValue& type) const {
    unsigned out = 0;
    auto add = [&](const std::string& name) {
      if (name == "null")
        out |= kNull;
      else if (name == "boolean")
        out |= kBoolean;
      else if (name == "object")
        out |= kObject;
      else if (name == "array")
        out |= kArray;
      else if (name == "string")
        out |= kString;
      else if (name == "number")
        out |= kNumber | kInteger;
      else if (name == "integer")
        out |= kInteger;
    };
    if (type.is_string()) add(type.string);
    for (const JsonValue& item : type.items)
      if (item.is_string()) add(item.string);
    return out;
  }

  // The constants a schema allows, when it is an enum or const.
  static std::optional<std::vector<JsonValue>> constants_of(const JsonValue& schema) {
    if (!schema.is_object()) return std::nullopt;
    if (const JsonValue* constant = schema.find("const")) return std::vector<JsonValue>{*constant};
    if (const JsonValue* values = schema.find("enum"); values && values->is_array())
      return values->items;
    return std::nullopt;
  }

  static bool disjoint_constants(const JsonValue& a, const JsonValue& b) {
    const auto left = constants_of(a);
    const auto right = constants_of(b);
    if (!left || !right) return false;
    for (const JsonValue& x : *left)
      if (std::find(right->begin(), right->end(), x) != right->end()) return false;
    return true;
  }

  static bool requires_name(const JsonValue& schema, const std::string& name) {
    const JsonValue* required = schema.find("required");
    if (!required) return false;
    for (const JsonValue& item : required->items)
      if (item.is_string() && item.string == name) return true;
    return false;
  }

  // Objects that cannot both hold: a property both require with disjoint constants, or one that
  // one side requires and the other forbids (additionalProperties false, not declared).
  bool disjoint_objects(const JsonValue& a, const JsonValue& b) const {
    for (int side = 0; side < 2; ++side) {
      const JsonValue& x = side ? b : a;
      const JsonValue& y = side ? a : b;
      const JsonValue* required = x.find("required");
      if (!required) continue;
      for (const JsonValue& item : required->items) {
        if (!item.is_string()) continue;
        const JsonValue* y_additional = y.find("additionalProperties");
        const JsonValue* y_properties = y.find("properties");
        const JsonValue* y_property = y_properties ? y_properties->find(item.string) : nullptr;
        if (!y_property && y_additional && y_additional->is_bool() && !y_additional->boolean &&
            !y.find("patternProperties"))
          return true;
        const JsonValue* x_properties = x.find("properties");
        const JsonValue* x_property = x_properties ? x_properties->find(item.string) : nullptr;
        if (x_property && y_property && requires_name(y, item.string)) {
          const JsonValue fx = flatten_conjunction(document_, *x_property, "");
          const JsonValue fy = flatten_conjunction(document_, *y_property, "");
          if (disjoint_constants(fx, fy) || (types_of(fx) & types_of(fy)) == 0) return true;
        }
      }
    }
    return false;
  }

  // Whether the closed ranges [min_key, max_key] of two schemas cannot meet (a missing bound is
  // open on that side). Exclusive bounds only make ranges smaller, so ignoring them is safe.
  static bool disjoint_ranges(const JsonValue& a, const JsonValue& b, const char* min_key,
                              const char* max_key) {
    auto number = [](const JsonValue& schema, const char* key) -> std::optional<double> {
      const JsonValue* value = schema.find(key);
      if (value && value->is_number()) return value->number;
      return std::nullopt;
    };
    const auto a_max = number(a, max_key);
    const auto b_max = number(b, max_key);
    const auto a_min = number(a, min_key);
    const auto b_min = number(b, min_key);
    return (a_max && b_min && *a_max < *b_min) || (b_max && a_min && *b_max < *a_min);
  }

  void check_disjoint(const std::vector<JsonValue>& branches, const std::string& where) {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      for (std::size_t j = i + 1; j < branches.size(); ++j) {
        const JsonValue& a = branches[i];
        const JsonValue& b = branches[j];
        if ((a.is_bool() && !a.boolean) || (b.is_bool() && !b.boolean)) continue;
        unsigned common = types_of(a) & types_of(b);
        if (common == 0 || disjoint_constants(a, b)) continue;
        if (common == kObject && a.is_object() && b.is_object() && disjoint_objects(a, b)) continue;
        if (a.is_object() && b.is_object() &&
            ((common == kString && disjoint_ranges(a, b, "minLength", "maxLength")) ||
             ((common & ~static_cast<unsigned>(kNumber | kInteger)) == 0 &&
              disjoint_ranges(a, b, "minimum", "maximum"))))
          continue;
        unenforced(where, fmt::format("oneOf branches {} and {} may both match, so \"exactly one\" "
                                      "cannot be enforced",
                                      i, j));
        return;
      }
    }
  }

  // ---- not

  // Folds `not` into the other keywords where that is exact: not {} (nothing validates),
  // not {"type": ...} (those types are removed), not {"required": [name]} (the property is
  // forbidden). Returns false when nothing can validate. Other forms are refused.
  bool negation(JsonValue& merged, const std::string& pointer) {
    const std::string where = pointer_append(pointer, "not");
    const JsonValue negated = flatten_conjunction(document_, *merged.find("not"), where);
    std::erase_if(merged.members, [](const auto& member) { return member.first == "not"; });
    if (negated.is_bool()) return !negated.boolean;
    if (negated.members.empty()) return false;
    if (negated.members.size() == 1 && negated.members[0].first == "not") {
      // not not X = X: conjoin X.
      JsonValue both{Kind::kObject, false, 0, false, 0, {}, {}, {}};
      JsonValue list{Kind::kArray, false, 0, false, 0, {}, {merged, negated.members[0].second}, {}};
      both.members.emplace_back("allOf", std::move(list));
      merged = flatten_conjunction(document_, both, where);
      if (merged.is_bool()) return merged.boolean;
      return !merged.find("not") || negation(merged, pointer);
    }
    if (negated.members.size() == 1 && negated.members[0].first == "type") {
      const unsigned excluded = type_bits(negated.members[0].second);
      unsigned types = kAllTypes;
      if (const JsonValue* type = merged.find("type")) types = type_bits(*type);
      if ((excluded & kInteger) && !(excluded & kNumber) && (types & kNumber)) {
        unenforced(where, "not {\"type\": \"integer\"} beside numbers is not supported");
        return true;
      }
      types &= ~excluded;
      if (excluded & kNumber) types &= ~static_cast<unsigned>(kInteger);
      JsonValue list{Kind::kArray, false, 0, false, 0, {}, {}, {}};
      for (const auto& [bit, name] : {std::pair<unsigned, const char*>{kNull, "null"},
                                      {kBoolean, "boolean"},
                                      {kObject, "object"},
                                      {kArray, "array"},
                                      {kString, "string"},
                                      {kNumber, "number"},
                                      {kInteger, "integer"}}) {
        if ((types & bit) && !(bit == kInteger && (types & kNumber)))
          list.items.push_back(JsonValue{Kind::kString, false, 0, false, 0, name, {}, {}});
      }
      if (list.items.empty()) return false;
      std::erase_if(merged.members, [](const auto& member) { return member.first == "type"; });
      merged.members.emplace_back("type", std::move(list));
      return true;
    }
    const JsonValue* required = negated.find("required");
    if (negated.members.size() == 1 && required && required->is_array() &&
        required->items.size() == 1 && required->items[0].is_string()) {
      JsonValue* forbidden = nullptr;
      for (auto& [key, value] : merged.members)
        if (key == kForbidden) forbidden = &value;
      if (!forbidden) {
        merged.members.emplace_back(kForbidden,
                                    JsonValue{Kind::kArray, false, 0, false, 0, {}, {}, {}});
        forbidden = &merged.members.back().second;
      }
      forbidden->items.push_back(required->items[0]);
      return true;
    }
    unenforced(where, "this form of \"not\" is not supported");
    return true;
  }

  // ---- one schema object without $ref / allOf / anyOf / oneOf
  // ------------------------------------

  std::string plain(const JsonValue& schema, const std::string& pointer) {
    unsigned types = kAllTypes;
    if (const JsonValue* type = schema.find("type")) {
      if (!type->is_string() && !type->is_array())
        document_.fail(pointer_append(pointer, "type"), "type must be a string or an array");
      for (const JsonValue& item : type->items)
        if (!item.is_string())
          document_.fail(pointer_append(pointer, "type"), "type names must be strings");
      types = type_bits(*type);
      const std::vector<std::string> names = [&] {
        std::vector<std::string> out;
        if (type->is_string()) out.push_back(type->string);
        for (const JsonValue& item : type->items) out.push_back(item.string);
        return out;
      }();
      for (const std::string& name : names)
        if (type_bits(JsonValue{Kind::kString, false, 0, false, 0, name, {}, {}}) == 0)
          document_.fail(pointer_append(pointer, "type"), fmt::format("unknown type \"{}\"", name));
    }
    if (schema.find("enum") || schema.find("const")) return constants(schema, pointer, types);
    std::vector<std::string> symbols;
    if (types & kNull) symbols.push_back(null_symbol());
    if (types & kBoolean) {
      symbols.push_back(true_symbol());
      symbols.push_back(false_symbol());
    }
    if (types & kNumber)
      symbols.push_back(number(schema, pointer, false));
    else if (types & kInteger)
      symbols.push_back(number(schema, pointer, true));
    if (types & kString) symbols.push_back(string(schema, pointer));
    if (types & kArray) symbols.push_back(array(schema, pointer));
    if (types & kObject) symbols.push_back(object(schema, pointer));
    std::vector<std::string> live;
    for (const std::string& symbol : symbols)
      if (!symbol.empty()) live.push_back(symbol);
    return alternatives("typed", live);
  }

  // ---- enum / const ----------------------------------------------------------------------------

  std::string constants(const JsonValue& schema, const std::string& pointer, unsigned types) {
    std::vector<JsonValue> values;
    if (const JsonValue* constant = schema.find("const")) {
      values.push_back(*constant);
    } else {
      const JsonValue& list = *schema.find("enum");
      if (!list.is_array())
        document_.fail(pointer_append(pointer, "enum"), "enum must be an array");
      values = list.items;
    }
    // The other keywords of the schema still apply to the listed values. Those this filter does
    // not evaluate are refused rather than trusted.
    for (const auto& [key, keyword] : schema.members) {
      if (key == "enum" || key == "const" || key == "type" || key == "minLength" ||
          key == "maxLength" || key == "minimum" || key == "maximum" || key == "pattern" ||
          key == "format")
        continue;
      unenforced(
          pointer_append(pointer, key),
          fmt::format("\"{}\" beside enum/const is not checked against the listed values", key));
    }
    std::vector<std::string> symbols;
    for (const JsonValue& item : values)
      if (constant_allowed(item, schema, types, pointer)) symbols.push_back(literal(item));
    return alternatives("enum", symbols);
  }

  bool constant_allowed(const JsonValue& item, const JsonValue& schema, unsigned types,
                        const std::string& pointer) {
    unsigned bits = bits_of_value(item);
    if (item.kind == Kind::kNumber) {
      const bool integral = item.is_integer || std::floor(item.number) == item.number;
      bits = integral ? (kNumber | kInteger) : kNumber;
    }
    if ((bits & types) == 0) return false;
    if (item.is_string()) {
      std::size_t length = 0;
      for (unsigned char c : item.string)
        if ((c & 0xC0) != 0x80) ++length;
      if (const JsonValue* min = schema.find("minLength");
          min && static_cast<double>(length) < min->number)
        return false;
      if (const JsonValue* max = schema.find("maxLength");
          max && static_cast<double>(length) > max->number)
        return false;
      if (const JsonValue* pattern = schema.find("pattern"); pattern && pattern->is_string()) {
        if (!ecma_search(pattern->string, item.string,
                         document_.where(pointer_append(pointer, "pattern"))))
          return false;
      }
      if (const JsonValue* format = schema.find("format"); format && format->is_string()) {
        if (auto regex = format_regex(format->string)) {
          // The format regexes are plain ASCII regexes that ECMAScript reads alike.
          if (!ecma_search("^(?:" + regex->regex + ")$", item.string,
                           document_.where(pointer_append(pointer, "format"))))
            return false;
        }
      }
    }
    if (item.is_number()) {
      if (const JsonValue* min = schema.find("minimum"); min && item.number < min->number)
        return false;
      if (const JsonValue* max = schema.find("maximum"); max && item.number > max->number)
        return false;
    }
    return true;
  }

  // The exact JSON text of a value (canonical spelling), as symbols.
  std::string literal(const JsonValue& item) {
    switch (item.kind) {
      case Kind::kNull:
        return null_symbol();
      case Kind::kBool:
        return item.boolean ? true_symbol() : false_symbol();
      case Kind::kNumber:
        return terminal(escape_literal(to_json_text(item)), "CONST_NUMBER");
      case Kind::kString:
        return terminal(json_string_literal_regex(item.string), "CONST_STRING");
      case Kind::kArray: {
        const std::string name = nonterminal("const_array");
        std::vector<std::string> rhs = {lsqb()};
        for (std::size_t i = 0; i < item.items.size(); ++i) {
          if (i) rhs.push_back(comma());
          rhs.push_back(literal(item.items[i]));
        }
        rhs.push_back(rsqb());
        rule(name, rhs);
        return name;
      }
      case Kind::kObject: {
        const std::string name = nonterminal("const_object");
        std::vector<std::string> rhs = {lbrace()};
        for (std::size_t i = 0; i < item.members.size(); ++i) {
          if (i) rhs.push_back(comma());
          rhs.push_back(terminal(json_string_literal_regex(item.members[i].first), "KEY"));
          rhs.push_back(colon());
          rhs.push_back(literal(item.members[i].second));
        }
        rhs.push_back(rbrace());
        rule(name, rhs);
        return name;
      }
    }
    return never();
  }

  // ---- numbers ---------------------------------------------------------------------------------

  struct Bound {
    std::optional<double> value;
    bool exclusive = false;
  };

  Bound bound(const JsonValue& schema, const std::string& pointer, bool lower) {
    const char* inclusive_key = lower ? "minimum" : "maximum";
    const char* exclusive_key = lower ? "exclusiveMinimum" : "exclusiveMaximum";
    Bound out;
    if (const JsonValue* inclusive = schema.find(inclusive_key)) {
      if (!inclusive->is_number())
        document_.fail(pointer_append(pointer, inclusive_key), "must be a number");
      out.value = inclusive->number;
    }
    if (const JsonValue* exclusive = schema.find(exclusive_key)) {
      if (exclusive->is_bool()) {  // draft 4: a flag on minimum / maximum
        out.exclusive = exclusive->boolean && out.value.has_value();
      } else if (exclusive->is_number()) {
        const bool tighter = !out.value || (lower ? exclusive->number >= *out.value
                                                  : exclusive->number <= *out.value);
        if (tighter) out = Bound{exclusive->number, true};
      } else {
        document_.fail(pointer_append(pointer, exclusive_key), "must be a number or a boolean");
      }
    }
    return out;
  }

  static constexpr double kLimit = 9.0e18;  // bounds must fit in int64

  std::string number(const JsonValue& schema, const std::string& pointer, bool integer) {
    const Bound lower = bound(schema, pointer, true);
    const Bound upper = bound(schema, pointer, false);
    if (const JsonValue* multiple = schema.find("multipleOf")) {
      const std::string where = pointer_append(pointer, "multipleOf");
      if (!multiple->is_number() || multiple->number <= 0)
        document_.fail(where, "multipleOf must be a positive number");
      // multipleOf 1 makes a number an integer (written without fraction or exponent: sound).
      // A power of ten below 1 bounds the fraction digits of an unbounded number.
      const double m = multiple->number;
      std::optional<int> decimals;
      for (int d = 1; d <= 9; ++d)
        if (std::fabs(m * std::pow(10.0, d) - 1.0) < 1e-9) decimals = d;
      if (m == 1) {
        integer = true;
      } else if (!integer && decimals && !lower.value && !upper.value) {
        return terminal(fmt::format(R"(-?(?:0|[1-9][0-9]*)(?:\.[0-9]{{1,{}}}0*)?)", *decimals),
                        "NUMBER");
      } else {
        unenforced(where, "this multipleOf is not supported");
      }
    }
    if (!lower.value && !upper.value)
      return integer ? terminal(any_json_integer_regex(), "INTEGER")
                     : terminal(any_json_number_regex(), "NUMBER");
    for (const Bound* b : {&lower, &upper}) {
      if (b->value && std::fabs(*b->value) > kLimit) {
        unenforced(pointer_append(pointer, b == &lower ? "minimum" : "maximum"),
                   "numeric bound beyond 64-bit integers is not supported");
      }
    }
    auto as_int = [](double v) {
      return static_cast<std::int64_t>(std::clamp(v, -kLimit, kLimit));
    };
    std::optional<std::int64_t> lo;
    std::optional<std::int64_t> hi;
    if (lower.value && std::fabs(*lower.value) <= kLimit) {
      const double v = *lower.value;
      lo = as_int(integer ? (lower.exclusive ? std::floor(v) + 1 : std::ceil(v))
                          : (std::floor(v) == v ? v : std::floor(v)));
    }
    if (upper.value && std::fabs(*upper.value) <= kLimit) {
      const double v = *upper.value;
      hi = as_int(integer ? (upper.exclusive ? std::ceil(v) - 1 : std::floor(v))
                          : (std::floor(v) == v ? v : std::ceil(v)));
    }
    std::optional<std::string> regex;
    if (integer) {
      regex = integer_range_regex(lo, hi);
    } else {
      std::optional<Decimal> lo_decimal;
      std::optional<Decimal> hi_decimal;
      for (const Bound* b : {&lower, &upper}) {
        if (!b->value || std::fabs(*b->value) > kLimit) continue;
        const std::string where = pointer_append(pointer, b == &lower ? "minimum" : "maximum");
        const std::optional<Decimal> decimal = decimal_of(*b->value);
        if (!decimal) {
          unenforced(where, "a bound that needs an exponent is not supported");
          continue;
        }
        (b == &lower ? lo_decimal : hi_decimal) = decimal;
      }
      try {
        regex = number_range_regex(lo_decimal, lower.exclusive, hi_decimal, upper.exclusive);
      } catch (const Error& e) {
        unenforced(pointer_append(pointer, "minimum"), e.what());
        regex = number_range_regex(std::nullopt, false, std::nullopt, false);
      }
    }
    if (!regex) return "";
    return terminal(*regex, integer ? "INTEGER" : "NUMBER");
  }

  // ---- strings ---------------------------------------------------------------------------------

  // A minLength / maxLength / minItems / maxItems value, held to the repetition cap.
  std::optional<std::size_t> count(const JsonValue& schema, const std::string& pointer,
                                   const char* key) {
    const JsonValue* value = schema.find(key);
    if (!value) return std::nullopt;
    if (!value->is_number() || value->number < 0 || std::floor(value->number) != value->number)
      document_.fail(pointer_append(pointer, key), "must be a non-negative integer");
    const double cap = static_cast<double>(options_.repetition_cap);
    if (value->number <= cap) return static_cast<std::size_t>(value->number);
    const std::string where = pointer_append(pointer, key);
    if (std::string_view(key).substr(0, 3) == "min")
      document_.fail(where, fmt::format("{} above the repetition cap {} is not supported", key,
                                        options_.repetition_cap));
    warnings_.push_back(
        Diagnostic{SourceLocation{document_.where(where), 0, 0},
                   fmt::format("{} lowered to the repetition cap {}: longer values are refused",
                               key, options_.repetition_cap)});
    return options_.repetition_cap;
  }

  std::string string(const JsonValue& schema, const std::string& pointer) {
    const std::optional<std::size_t> min_length = count(schema, pointer, "minLength");
    const std::optional<std::size_t> max_length = count(schema, pointer, "maxLength");
    const bool has_length = (min_length && *min_length > 0) || max_length;
    const JsonValue* pattern = schema.find("pattern");
    if (pattern && !pattern->is_string())
      document_.fail(pointer_append(pointer, "pattern"), "pattern must be a string");
    std::optional<FormatRegex> format;
    if (const JsonValue* name = schema.find("format"); name && name->is_string())
      format = format_regex(name->string);  // unknown formats are annotations
    if (min_length && max_length && *min_length > *max_length) return "";
    if (pattern) {
      if (format) unenforced(pointer_append(pointer, "format"), "format beside pattern");
      if (has_length)
        unenforced(pointer_append(pointer, max_length ? "maxLength" : "minLength"),
                   "a length bound beside pattern");
      return terminal("\"" +
                          translate_pattern(pattern->string,
                                            document_.where(pointer_append(pointer, "pattern"))) +
                          "\"",
                      "PATTERN");
    }
    if (format) {
      const bool implied =
          (!min_length || format->min_length >= *min_length) &&
          (!max_length || (format->max_length && *format->max_length <= *max_length));
      if (!implied)
        unenforced(pointer_append(pointer, max_length ? "maxLength" : "minLength"),
                   "a length bound beside format");
      return terminal("\"" + format->regex + "\"", "FORMAT");
    }
    if (has_length)
      return terminal(
          "\"" + repeat_regex(canonical_any_char_regex(), min_length.value_or(0), max_length) +
              "\"",
          "STRING");
    return terminal(any_json_string_regex(), "STRING");
  }

  // ---- arrays ----------------------------------------------------------------------------------

  std::string array(const JsonValue& schema, const std::string& pointer) {
    std::vector<std::pair<const JsonValue*, std::string>> prefix;
    JsonValue true_schema{Kind::kBool, true, 0, false, 0, {}, {}, {}};
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

    std::vector<std::string> element_symbols;
    for (const auto& [item, where] : prefix) element_symbols.push_back(value(*item, where));
    const std::string rest_symbol = rest_forbidden ? "" : value(*rest, rest_pointer);
    auto element = [&](std::size_t index) {
      return index < element_symbols.size() ? element_symbols[index] : rest_symbol;
    };

    // from(j): the elements at positions j, j+1, ... and the closing bracket.
    const std::string close = rsqb();
    std::map<std::size_t, std::string> from;
    std::string star;  // rest (, rest)* : left-recursive, keeps LR stacks shallow
    std::size_t limit = max_items ? *max_items : std::max(prefix.size(), min_items);
    std::vector<std::string> tail(limit + 1);
    for (std::size_t j = limit + 1; j-- > 0;) {
      const std::string name = nonterminal("items");
      tail[j] = name;
      const std::vector<std::string> separator =
          j == 0 ? std::vector<std::string>{} : std::vector<std::string>{comma()};
      if (j >= min_items) rule(name, {close});
      if (j == limit) {
        if (!max_items && !rest_symbol.empty()) {
          if (star.empty()) {
            star = nonterminal("item_list");
            rule(star, {rest_symbol});
            rule(star, {star, comma(), rest_symbol});
          }
          std::vector<std::string> rhs = separator;
          rhs.push_back(star);
          rhs.push_back(close);
          rule(name, rhs);
        }
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

  // ---- objects ---------------------------------------------------------------------------------

  struct Member {
    std::string name;
    std::string value_symbol;
    bool required = false;
  };

  std::string object(const JsonValue& schema, const std::string& pointer) {
    const JsonValue* properties = schema.find("properties");
    if (properties && !properties->is_object())
      document_.fail(pointer_append(pointer, "properties"), "properties must be an object");
    std::set<std::string> required;
    if (const JsonValue* list = schema.find("required")) {
      if (!list->is_array())
        document_.fail(pointer_append(pointer, "required"), "required must be an array");
      for (const JsonValue& item : list->items) {
        if (!item.is_string())
          document_.fail(pointer_append(pointer, "required"), "required names must be strings");
        required.insert(item.string);
      }
    }
    std::set<std::string> forbidden;  // by `not {"required": [name]}`
    if (const JsonValue* names = schema.find(kForbidden))
      for (const JsonValue& item : names->items) forbidden.insert(item.string);
    for (const std::string& name : forbidden)
      if (required.count(name)) return "";
    std::size_t min_properties = 0;
    if (const JsonValue* min = schema.find("minProperties")) {
      if (!min->is_number() || min->number < 0 || std::floor(min->number) != min->number)
        document_.fail(pointer_append(pointer, "minProperties"), "must be a non-negative integer");
      if (min->number > 16)
        unenforced(pointer_append(pointer, "minProperties"), "minProperties above 16");
      else
        min_properties = static_cast<std::size_t>(min->number);
    }
    JsonValue true_schema{Kind::kBool, true, 0, false, 0, {}, {}, {}};
    const JsonValue* additional = schema.find("additionalProperties");
    const std::string additional_pointer = pointer_append(pointer, "additionalProperties");
    const JsonValue* patterns = schema.find("patternProperties");
    if (patterns && !patterns->is_object())
      document_.fail(pointer_append(pointer, "patternProperties"),
                     "patternProperties must be an object");

    // Declared properties in schema order; each value also obeys the patternProperties whose
    // pattern its name matches.
    std::vector<Member> members;
    std::vector<std::string> declared;
    auto pattern_matches = [&](const std::string& pattern_text, const std::string& name,
                               const std::string& where) {
      return ecma_search(pattern_text, name, document_.where(where));
    };
    auto member_value = [&](const std::string& name, const JsonValue& own,
                            const std::string& where) {
      std::vector<JsonValue> parts = {own};
      if (patterns) {
        for (const auto& [pattern_text, pattern_schema] : patterns->members)
          if (pattern_matches(
                  pattern_text, name,
                  pointer_append(pointer_append(pointer, "patternProperties"), pattern_text)))
            parts.push_back(pattern_schema);
      }
      if (parts.size() == 1) return value(own, where);
      JsonValue all;
      all.kind = Kind::kObject;
      JsonValue list;
      list.kind = Kind::kArray;
      list.items = std::move(parts);
      all.members.emplace_back("allOf", std::move(list));
      return value(all, where);
    };
    if (properties) {
      for (const auto& [name, property] : properties->members) {
        const std::string where = pointer_append(pointer_append(pointer, "properties"), name);
        declared.push_back(name);
        if (forbidden.count(name)) continue;
        members.push_back({name, member_value(name, property, where), required.count(name) > 0});
      }
    }
    // Required names without a declaration take the schema of additional properties.
    for (const std::string& name : required) {
      if (std::find(declared.begin(), declared.end(), name) != declared.end()) continue;
      const JsonValue& own = additional ? *additional : true_schema;
      members.push_back({name, member_value(name, own, additional_pointer), true});
      declared.push_back(name);
    }

    // Extra members after the declared ones: keys matching a patternProperties pattern, or any
    // other key when additionalProperties allows it.
    std::string extra;  // one "key: value" pair, or empty when no extra member is allowed
    if (patterns && !patterns->members.empty()) {
      const JsonValue& first_schema = patterns->members.front().second;
      for (const auto& [pattern_text, pattern_schema] : patterns->members) {
        const std::string where =
            pointer_append(pointer_append(pointer, "patternProperties"), pattern_text);
        if (!(pattern_schema == first_schema))
          unenforced(where, "patternProperties with different schemas per pattern");
        for (const std::string& name : forbidden)
          if (pattern_matches(pattern_text, name, where))
            unenforced(where,
                       fmt::format("a forbidden property \"{}\" matching the pattern", name));
        for (const std::string& name : declared)
          if (pattern_matches(pattern_text, name, where))
            document_.fail(where, fmt::format("pattern matches the declared property \"{}\"; "
                                              "not supported",
                                              name));
      }
      if (!(additional && additional->is_bool() && !additional->boolean)) {
        warnings_.push_back(Diagnostic{
            SourceLocation{document_.where(pointer_append(pointer, "patternProperties")), 0, 0},
            "keys matching no pattern are refused (a sound restriction of additionalProperties)"});
      }
      std::string key_regex;
      for (const auto& [pattern_text, pattern_schema] : patterns->members) {
        const std::string where = document_.where(
            pointer_append(pointer_append(pointer, "patternProperties"), pattern_text));
        key_regex += (key_regex.empty() ? "" : "|") + std::string("(?:") +
                     translate_pattern(pattern_text, where) + ")";
      }
      const std::string key = terminal("\"(?:" + key_regex + ")\"", "KEY");
      const std::string value_symbol =
          value(first_schema, pointer_append(pointer_append(pointer, "patternProperties"),
                                             patterns->members.front().first));
      extra = nonterminal("member");
      rule(extra, {key, colon(), value_symbol});
    } else if (!(additional && additional->is_bool() && !additional->boolean)) {
      std::vector<std::string> excluded = declared;
      excluded.insert(excluded.end(), forbidden.begin(), forbidden.end());
      const std::optional<std::string> key_regex = json_string_excluding_regex(excluded);
      if (!key_regex)
        document_.fail(pointer_append(pointer, "properties"),
                       "a property name with '\"', '\\\\' or a control character, beside "
                       "additional properties, is not supported");
      const std::string value_symbol =
          additional ? value(*additional, additional_pointer) : any_value();
      if (value_symbol != never_ || never_.empty()) {
        extra = nonterminal("member");
        rule(extra, {terminal(*key_regex, "KEY"), colon(), value_symbol});
      }
    }

    // tail(i, count): members i.. and the closing brace, after `count` members (held at
    // max(min_properties, 1): beyond that only "some member came before, so a comma is due"
    // matters).
    const std::size_t count_cap = std::max<std::size_t>(min_properties, 1);
    std::map<std::pair<std::size_t, std::size_t>, std::string> tails;
    std::map<std::size_t, std::string> extra_lists;  // at least n extra members, n >= 1
    auto extra_list = [&](auto&& self, std::size_t at_least) -> std::string {
      auto found = extra_lists.find(at_least);
      if (found != extra_lists.end()) return found->second;
      const std::string name = nonterminal("member_list");
      extra_lists.emplace(at_least, name);
      if (at_least == 1) {
        rule(name, {extra});
        rule(name, {name, comma(), extra});
      } else {
        rule(name, {self(self, at_least - 1), comma(), extra});
      }
      return name;
    };
    auto tail = [&](auto&& self, std::size_t i, std::size_t count) -> std::string {
      auto found = tails.find({i, count});
      if (found != tails.end()) return found->second;
      const std::string name = nonterminal("members");
      tails.emplace(std::make_pair(i, count), name);
      std::vector<std::string> separator;
      if (count > 0) separator.push_back(comma());
      if (i == members.size()) {
        if (count >= min_properties) rule(name, {rbrace()});
        if (!extra.empty()) {
          const std::size_t missing = count >= min_properties ? 1 : min_properties - count;
          std::vector<std::string> rhs = separator;
          rhs.push_back(extra_list(extra_list, missing));
          rhs.push_back(rbrace());
          rule(name, rhs);
        }
        return name;
      }
      const Member& member = members[i];
      std::vector<std::string> rhs = separator;
      rhs.push_back(terminal(json_string_literal_regex(member.name), "KEY"));
      rhs.push_back(colon());
      rhs.push_back(member.value_symbol);
      rhs.push_back(self(self, i + 1, std::min(count + 1, count_cap)));
      rule(name, rhs);
      if (!member.required) rule(name, {self(self, i + 1, count)});
      return name;
    };
    const std::string name = nonterminal("object");
    rule(name, {lbrace(), tail(tail, 0, 0)});
    return name;
  }

  SchemaDocument document_;
  SchemaOptions options_;
  GrammarBuilder builder_;
  std::string source_name_;
  std::map<std::string, std::string> terminal_by_pattern_;
  std::map<std::string, std::string> memo_;
  std::vector<Diagnostic> warnings_;
  std::string any_value_;
  std::string never_;
  std::size_t nonterminal_count_ = 0;
};

}  // namespace

Grammar compile_json_schema(const JsonValue& schema, const std::string& source_name,
                            const SchemaOptions& options) {
  return Compiler(schema, source_name, options).compile();
}

Grammar compile_json_schema_text(std::string_view schema_text, const std::string& source_name,
                                 const SchemaOptions& options) {
  const JsonValue schema = parse_json(schema_text, source_name);
  return compile_json_schema(schema, source_name, options);
}

Grammar load_json_schema_file(const std::filesystem::path& path, const SchemaOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(fmt::format("{}: cannot read the JSON Schema file", path.string()), ErrorCode::kIo,
                ErrorLocation::in_file(path.string()));
  std::stringstream text;
  text << in.rdbuf();
  return compile_json_schema_text(text.str(), path.string(), options);
}

Grammar json_grammar(const SchemaOptions& options) {
  JsonValue any;
  any.kind = JsonValue::Kind::kBool;
  any.boolean = true;
  return compile_json_schema(any, "<json>", options);
}

Whitespace parse_whitespace(std::string_view name) {
  if (name == "default") return Whitespace::kDefault;
  if (name == "compact") return Whitespace::kCompact;
  if (name == "flexible") return Whitespace::kFlexible;
  throw Error(fmt::format(
      "unknown JSON whitespace mode '{}' (expected default, compact or flexible)", name));
}

}  // namespace glrmask::json_schema
