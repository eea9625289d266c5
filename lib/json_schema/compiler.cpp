#include "lib/json_schema/compiler.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/number_regex.h"
#include "lib/json_schema/regex.h"
#include "lib/json_schema/schema_compiler.h"
#include "lib/json_schema/unevaluated.h"

namespace glrmask::json_schema {
namespace detail {

using Kind = JsonValue::Kind;

namespace {

// Distributing combinators multiplies branches (anyOf of anyOfs, oneOf with complements); past
// this many for one schema the compiler refuses rather than build a huge grammar.
constexpr std::size_t kMaxDistributed = 2048;

unsigned type_name_bits(std::string_view name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "object") return kObject;
  if (name == "array") return kArray;
  if (name == "string") return kString;
  if (name == "number") return kNumber | kInteger;
  if (name == "integer") return kInteger;
  return 0;
}

}  // namespace

unsigned type_bits(const JsonValue& type) {
  unsigned out = 0;
  if (type.is_string()) out |= type_name_bits(type.string);
  for (const JsonValue& item : type.items)
    if (item.is_string()) out |= type_name_bits(item.string);
  return out;
}

unsigned value_type_bits(const JsonValue& value) {
  switch (value.kind) {
    case Kind::kNull:
      return kNull;
    case Kind::kBool:
      return kBoolean;
    case Kind::kNumber: {
      const bool integral = value.is_integer || std::floor(value.number) == value.number;
      return integral ? (kNumber | kInteger) : kNumber;
    }
    case Kind::kString:
      return kString;
    case Kind::kArray:
      return kArray;
    case Kind::kObject:
      return kObject;
  }
  return 0;
}

unsigned schema_types(const JsonValue& schema) {
  if (schema.is_bool()) return schema.boolean ? kAllTypes : 0u;
  unsigned types = kAllTypes;
  if (const JsonValue* type = schema.find("type")) types = type_bits(*type);
  auto of_values = [](const std::vector<JsonValue>& values) {
    unsigned bits = 0;
    for (const JsonValue& item : values)
      bits |= item.is_number() ? (kNumber | kInteger) : value_type_bits(item);
    return bits;
  };
  if (const JsonValue* values = schema.find("enum"); values && values->is_array())
    types &= of_values(values->items);
  if (const JsonValue* constant = schema.find("const")) types &= of_values({*constant});
  if (types & kNumber) types |= kInteger;
  return types;
}

JsonValue type_value(unsigned bits) {
  JsonValue list = make_array();
  for (const auto& [bit, name] : {std::pair<unsigned, const char*>{kNull, "null"},
                                  {kBoolean, "boolean"},
                                  {kObject, "object"},
                                  {kArray, "array"},
                                  {kString, "string"},
                                  {kNumber, "number"},
                                  {kInteger, "integer"}}) {
    if ((bits & bit) && !(bit == kInteger && (bits & kNumber)))
      list.items.push_back(make_string(name));
  }
  return list;
}

SchemaCompiler::SchemaCompiler(const JsonValue& root, const std::string& source_name,
                               const SchemaOptions& options)
    : bundle_(bundle_references(root, source_name, detect_draft(root, options.default_draft),
                                options.documents, !options.assert_format)),
      document_(bundle_.root, source_name, options.default_draft, bundle_.document_uris),
      options_(options),
      builder_(source_name),
      source_name_(source_name) {}

GrammarModel SchemaCompiler::compile() && {
  const std::string top = value(document_.root(), "");
  rule("start", {top});
  // Named after the schema's root, so a lexer's "the start symbol derives no text" names it.
  builder_.add_nonterminal(Nonterminal{"start", {}, false, {document_.where(""), 0, 0}});
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

// ---- symbols ------------------------------------------------------------------------------------

std::string SchemaCompiler::terminal(const std::string& pattern, std::string_view hint,
                                     const std::optional<std::string>& pointer) {
  auto found = terminal_by_pattern_.find(pattern);
  if (found != terminal_by_pattern_.end()) return found->second;
  const std::string name = fmt::format("{}_{}", hint, terminal_by_pattern_.size());
  Terminal t;
  t.name = name;
  t.pattern = pattern;
  t.origin = SourceLocation{pointer ? document_.where(*pointer) : source_name_, 0, 0};
  builder_.add_terminal(t);
  terminal_by_pattern_.emplace(pattern, name);
  return name;
}

std::string SchemaCompiler::punctuation(const std::string& name, const std::string& text) {
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

std::string SchemaCompiler::comma() {
  return punctuation("COMMA", options_.whitespace == Whitespace::kDefault ? ", " : ",");
}

std::string SchemaCompiler::colon() {
  return punctuation("COLON", options_.whitespace == Whitespace::kDefault ? ": " : ":");
}

std::string SchemaCompiler::nonterminal(std::string_view hint) {
  const std::string name = fmt::format("{}_{}", hint, nonterminal_count_++);
  builder_.add_nonterminal(Nonterminal{name, {}, true, SourceLocation{source_name_, 0, 0}});
  return name;
}

std::string SchemaCompiler::never() {
  if (never_.empty()) never_ = nonterminal("never");
  return never_;
}

void SchemaCompiler::rule(const std::string& lhs, std::vector<std::string> rhs) {
  RuleSpec spec;
  spec.lhs = lhs;
  spec.rhs = std::move(rhs);
  builder_.add_rule(std::move(spec));
}

std::string SchemaCompiler::alternatives(std::string_view hint,
                                         const std::vector<std::string>& symbols) {
  std::vector<std::string> live;
  for (const std::string& symbol : symbols)
    if (!symbol.empty() && !is_never(symbol) &&
        std::find(live.begin(), live.end(), symbol) == live.end())
      live.push_back(symbol);
  if (live.empty()) return never();
  if (live.size() == 1) return live[0];
  const std::string name = nonterminal(hint);
  for (const std::string& symbol : live) rule(name, {symbol});
  return name;
}

void SchemaCompiler::unenforced(const std::string& pointer, const std::string& message) {
  if (!options_.lenient) document_.fail(pointer, message + " (JsonOptions::lenient ignores it)");
  warnings_.push_back(Diagnostic{SourceLocation{document_.where(pointer), 0, 0},
                                 message + ": ignored (lenient), the grammar accepts more",
                                 pointer});
}

void SchemaCompiler::warn(const std::string& pointer, const std::string& message) {
  warnings_.push_back(Diagnostic{SourceLocation{document_.where(pointer), 0, 0}, message, pointer});
}

std::string SchemaCompiler::any_value() {
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

// ---- schemas ------------------------------------------------------------------------------------

std::string SchemaCompiler::value(const JsonValue& schema, const std::string& pointer) {
  if (schema.is_bool()) return schema.boolean ? any_value() : never();
  if (!schema.is_object()) document_.fail(pointer, "a schema must be an object or a boolean");
  // Identical schemas (and every $ref to one place) share one nonterminal, which also makes
  // recursion through $ref finite: the nonterminal exists before its rules are made.
  const std::string key = to_json_text(schema);
  auto found = memo_.find(key);
  if (found != memo_.end()) return found->second;
  const std::string name = nonterminal("value");
  memo_.emplace(key, name);
  const std::string body = conjunction(schema, pointer);
  if (!is_never(body)) rule(name, {body});
  return name;
}

std::string SchemaCompiler::conjunction(const JsonValue& schema, const std::string& pointer) {
  JsonValue merged = flatten_conjunction(document_, without_unevaluated(schema, pointer), pointer);
  if (merged.is_bool()) return merged.boolean ? any_value() : never();
  if (std::optional<Alternatives> choice = take_combinator(merged, pointer)) {
    // merged ∧ (b1 ∨ b2 ∨ ...) = (merged ∧ b1) ∨ (merged ∧ b2) ∨ ...
    std::vector<std::string> symbols;
    for (std::size_t i = 0; i < choice->branches.size(); ++i) {
      if (++distributed_ > kMaxDistributed)
        document_.fail(first_distributed_.empty() ? pointer : first_distributed_,
                       fmt::format("distributing anyOf / oneOf / if / not (with the complements "
                                   "\"exactly one\" and \"not\" need) makes more than {} "
                                   "branches; not supported",
                                   kMaxDistributed));
      if (first_distributed_.empty() && choice->pointers[i].find("/not") != std::string::npos)
        first_distributed_ = choice->pointers[i].substr(0, choice->pointers[i].find("/not"));
      const JsonValue branch = flatten_conjunction(
          document_, make_all_of({merged, choice->branches[i]}), choice->pointers[i]);
      if (branch.is_bool() && !branch.boolean) continue;
      symbols.push_back(value(branch, choice->pointers[i]));
    }
    return alternatives("alternatives", symbols);
  }
  // unevaluated* were rewritten away (unevaluated.h); what remains is not supported.
  for (const auto& [key, keyword] : merged.members)
    if (key == "unevaluatedProperties" || key == "unevaluatedItems" || key == "$dynamicRef" ||
        key == "$recursiveRef")
      unenforced(pointer_append(pointer, key), fmt::format("keyword \"{}\" is not supported", key));
  return plain(merged, pointer);
}

JsonValue SchemaCompiler::without_unevaluated(const JsonValue& schema, const std::string& pointer) {
  if (!has_unevaluated_in_place(document_, schema)) return schema;
  // oneOf branches a proof shows disjoint need no complement of each other.
  auto disjoint = [this](const JsonValue& a, const JsonValue& b) {
    try {
      return provably_disjoint(flatten_conjunction(document_, a, ""),
                               flatten_conjunction(document_, b, ""));
    } catch (const Error&) {
      return false;  // no proof; the compiler meets the error where it compiles the branch
    }
  };
  return resolve_unevaluated(document_, schema, pointer, disjoint);
}

std::optional<SchemaCompiler::Alternatives> SchemaCompiler::take_combinator(
    JsonValue& merged, const std::string& pointer) {
  auto branch_list = [&](const JsonValue& list, const std::string& keyword) {
    const std::string where = pointer_append(pointer, keyword);
    if (!list.is_array() || list.items.empty())
      document_.fail(where, keyword + " must be a non-empty array of schemas");
    Alternatives out;
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      out.branches.push_back(list.items[i]);
      out.pointers.push_back(pointer_append(where, std::to_string(i)));
    }
    return out;
  };
  if (std::optional<JsonValue> any_of = merged.take("anyOf")) return branch_list(*any_of, "anyOf");
  if (std::optional<JsonValue> one_of = merged.take("oneOf")) {
    Alternatives out = branch_list(*one_of, "oneOf");
    const std::string where = pointer_append(pointer, "oneOf");
    // Exactly one: branch i and the complement of every branch that may overlap it. Branches a
    // proof shows disjoint (types, constants, required vs forbidden names, ranges) need none.
    std::vector<JsonValue> flat;
    for (std::size_t i = 0; i < out.branches.size(); ++i)
      flat.push_back(
          flatten_conjunction(document_, make_all_of({merged, out.branches[i]}), out.pointers[i]));
    std::vector<JsonValue> exact;
    for (std::size_t i = 0; i < out.branches.size(); ++i) {
      std::vector<JsonValue> parts = {out.branches[i]};
      for (std::size_t j = 0; j < out.branches.size(); ++j) {
        if (j == i || provably_disjoint(flat[i], flat[j])) continue;
        try {
          negate(out.branches[j], out.pointers[j]);
        } catch (const Error& e) {
          document_.fail(where, fmt::format("oneOf branches {} and {} may both match, and "
                                            "\"exactly one\" needs the complement of branch {}, "
                                            "which is not exact: {}",
                                            i, j, j, e.what()));
        }
        parts.push_back(make_object({{"not", out.branches[j]}}));
      }
      exact.push_back(parts.size() == 1 ? parts[0] : make_all_of(std::move(parts)));
    }
    out.branches = std::move(exact);
    return out;
  }
  if (std::optional<JsonValue> negated = merged.take("not")) {
    const std::string where = pointer_append(pointer, "not");
    const JsonValue complement = negate(*negated, where);
    Alternatives out;
    if (complement.is_bool() && !complement.boolean) return out;
    if (const JsonValue* any_of = complement.find("anyOf");
        any_of && complement.members.size() == 1) {
      for (const JsonValue& branch : any_of->items) {
        out.branches.push_back(branch);
        out.pointers.push_back(where);
      }
    } else {
      out.branches.push_back(complement);
      out.pointers.push_back(where);
    }
    return out;
  }
  if (std::optional<JsonValue> condition = merged.take("if")) {
    // (if ∧ then) ∨ (¬if ∧ else); a missing then / else is true.
    const std::optional<JsonValue> then = merged.take("then");
    const std::optional<JsonValue> otherwise = merged.take("else");
    Alternatives out;
    out.branches.push_back(make_all_of({*condition, then ? *then : make_bool(true)}));
    out.pointers.push_back(pointer_append(pointer, then ? "then" : "if"));
    out.branches.push_back(make_all_of(
        {make_object({{"not", *condition}}), otherwise ? *otherwise : make_bool(true)}));
    out.pointers.push_back(pointer_append(pointer, otherwise ? "else" : "if"));
    return out;
  }
  merged.take("then");  // without `if`, then and else do nothing
  merged.take("else");
  for (auto& [key, value] : merged.members) {
    if (key != "dependentSchemas" || !value.is_object() || value.members.empty()) continue;
    // {a: S}: a absent, or a present and S.
    auto [name, schema] = value.members.front();
    value.members.erase(value.members.begin());
    const std::string where = pointer_append(pointer_append(pointer, "dependentSchemas"), name);
    Alternatives out;
    out.branches.push_back(make_object({{internal::kForbidden, make_array({make_string(name)})}}));
    out.pointers.push_back(where);
    out.branches.push_back(
        make_all_of({make_object({{"type", make_string("object")},
                                  {"required", make_array({make_string(name)})}}),
                     schema}));
    out.pointers.push_back(where);
    if (value.members.empty()) merged.take("dependentSchemas");
    return out;
  }
  merged.take("dependentSchemas");
  if (std::optional<JsonValue> also = merged.take(internal::kAlso)) {
    // One more conjunct of combinators: its keywords go to the top, the rest stay listed.
    if (also->items.empty()) return take_combinator(merged, pointer);
    JsonValue first = also->items.front();
    also->items.erase(also->items.begin());
    if (!also->items.empty()) merged.members.emplace_back(internal::kAlso, std::move(*also));
    if (first.is_bool()) {
      if (first.boolean) return take_combinator(merged, pointer);
      return Alternatives{};
    }
    for (auto& member : first.members) merged.members.push_back(std::move(member));
    return take_combinator(merged, pointer);
  }
  return std::nullopt;
}

std::string SchemaCompiler::plain(const JsonValue& schema, const std::string& pointer) {
  unsigned types = kAllTypes;
  if (const JsonValue* type = schema.find("type")) {
    if (!type->is_string() && !type->is_array())
      document_.fail(pointer_append(pointer, "type"), "type must be a string or an array");
    for (const JsonValue& item : type->items)
      if (!item.is_string())
        document_.fail(pointer_append(pointer, "type"), "type names must be strings");
    std::vector<std::string> names;
    if (type->is_string()) names.push_back(type->string);
    for (const JsonValue& item : type->items) names.push_back(item.string);
    for (const std::string& name : names)
      if (type_name_bits(name) == 0)
        document_.fail(pointer_append(pointer, "type"), fmt::format("unknown type \"{}\"", name));
    types = type_bits(*type);
  }
  if (schema.find("enum") || schema.find("const")) return constants(schema, pointer, types);
  // Values the schema excludes one by one (from `not` of an enum or const).
  std::vector<JsonValue> excluded;
  if (const JsonValue* not_in = schema.find(internal::kNotIn)) excluded = not_in->items;
  auto is_excluded = [&](const JsonValue& item) {
    return std::any_of(excluded.begin(), excluded.end(),
                       [&](const JsonValue& x) { return x == item; });
  };
  std::vector<std::string> symbols;
  if ((types & kNull) && !is_excluded(JsonValue{})) symbols.push_back(null_symbol());
  if (types & kBoolean) {
    if (!is_excluded(make_bool(true))) symbols.push_back(true_symbol());
    if (!is_excluded(make_bool(false))) symbols.push_back(false_symbol());
  }
  if (types & kNumber)
    symbols.push_back(number(schema, pointer, false));
  else if (types & kInteger)
    symbols.push_back(number(schema, pointer, true));
  if (types & kString) symbols.push_back(string(schema, pointer));
  for (const JsonValue& item : excluded)
    if ((item.is_array() && (types & kArray)) || (item.is_object() && (types & kObject)))
      unenforced(pointer, "the complement of an array or object constant is not supported");
  if (types & kArray) symbols.push_back(array(schema, pointer));
  if (types & kObject) symbols.push_back(object(schema, pointer));
  return alternatives("typed", symbols);
}

std::optional<std::size_t> SchemaCompiler::count(const JsonValue& schema,
                                                 const std::string& pointer, const char* key) {
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
  warn(where, fmt::format("{} lowered to the repetition cap {}: longer values are refused", key,
                          options_.repetition_cap));
  return options_.repetition_cap;
}

}  // namespace detail

GrammarModel compile_json_schema(const JsonValue& schema, const std::string& source_name,
                                 const SchemaOptions& options) {
  return detail::SchemaCompiler(schema, source_name, options).compile();
}

GrammarModel compile_json_schema_text(std::string_view schema_text, const std::string& source_name,
                                      const SchemaOptions& options) {
  const JsonValue schema = parse_json(schema_text, source_name);
  return compile_json_schema(schema, source_name, options);
}

GrammarModel load_json_schema_file(const std::filesystem::path& path,
                                   const SchemaOptions& options) {
  return compile_json_schema_text(read_text_file(path), path.string(), options);
}

GrammarModel json_grammar(const SchemaOptions& options) {
  return compile_json_schema(make_bool(true), "<json>", options);
}

Whitespace parse_whitespace(std::string_view name) {
  if (name == "default") return Whitespace::kDefault;
  if (name == "compact") return Whitespace::kCompact;
  if (name == "flexible") return Whitespace::kFlexible;
  throw Error(
      fmt::format("unknown JSON whitespace mode '{}' (expected default, compact or flexible)",
                  name),
      ErrorCode::kInvalidArgument);
}

PropertyOrder parse_property_order(std::string_view name) {
  if (name == "schema") return PropertyOrder::kSchema;
  if (name == "any") return PropertyOrder::kAny;
  throw Error(fmt::format("unknown property order '{}' (expected schema or any)", name),
              ErrorCode::kInvalidArgument);
}

}  // namespace glrmask::json_schema
