// The JSON Schema compiler's inside (compiler.h is its interface): one SchemaCompiler per schema,
// its methods spread over files by the part of a schema they handle.
//
//   compiler.cpp          symbols, value() and conjunction(): $ref / allOf merged (merge.h),
//                         combinators distributed into alternatives, the type split
//   negation.cpp          `not`: the complement of a schema as a schema, where it is exact
//   one_of.cpp            oneOf: proofs that branches are disjoint
//   unevaluated.cpp       unevaluatedProperties / unevaluatedItems as keywords compiled above
//   compile_constants.cpp enum / const: the listed values that validate, as terminals
//   compile_numbers.cpp   numbers: digit regexes for bounds, multiples and exclusions
//   compile_strings.cpp   strings: lengths, patterns, formats and exclusions in one terminal
//   compile_arrays.cpp    arrays: positions, lists, contains, uniqueItems over finite sets
//   compile_objects.cpp   objects: the member chain (order, required, counts, dependencies,
//                         key regions of patternProperties / additionalProperties / propertyNames)
//
// Every schema node becomes a nonterminal, memoized by the node's JSON text, so recursion through
// $ref is recursion between rules. A keyword this compiler cannot enforce exactly is refused
// through unenforced() (a warning and an over-approximation under `lenient`).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lib/grammar/grammar_builder.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema::detail {

// The seven JSON Schema types, as bits. `number` includes `integer`.
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

// The bits of a "type" keyword's value (unknown names give none).
unsigned type_bits(const JsonValue& type);
// The bits of one JSON value's type (an integral number is both number and integer).
unsigned value_type_bits(const JsonValue& value);
// The types a flattened schema object allows through type, enum and const.
unsigned schema_types(const JsonValue& schema);
// A "type" keyword value for the bits.
JsonValue type_value(unsigned bits);

class SchemaCompiler {
 public:
  SchemaCompiler(const JsonValue& root, const std::string& source_name,
                 const SchemaOptions& options);
  GrammarModel compile() &&;

 private:
  // ---- symbols (compiler.cpp)
  // A pattern terminal; `pointer` (the schema node it comes from) becomes its origin, so the
  // lexer's messages about it (a terminal no text matches) name the node.
  std::string terminal(const std::string& pattern, std::string_view hint,
                       const std::optional<std::string>& pointer = std::nullopt);
  std::string punctuation(const std::string& name, const std::string& text);
  std::string lbrace() { return punctuation("LBRACE", "{"); }
  std::string rbrace() { return punctuation("RBRACE", "}"); }
  std::string lsqb() { return punctuation("LSQB", "["); }
  std::string rsqb() { return punctuation("RSQB", "]"); }
  std::string comma();
  std::string colon();
  std::string null_symbol() { return punctuation("NULL", "null"); }
  std::string true_symbol() { return punctuation("TRUE", "true"); }
  std::string false_symbol() { return punctuation("FALSE", "false"); }
  std::string nonterminal(std::string_view hint);
  // A nonterminal with no rules: the builder drops it and every rule that uses it.
  std::string never();
  bool is_never(const std::string& symbol) const { return !never_.empty() && symbol == never_; }
  void rule(const std::string& lhs, std::vector<std::string> rhs);
  std::string alternatives(std::string_view hint, const std::vector<std::string>& symbols);
  // A keyword that is not enforced: an error, or under `lenient` a warning.
  void unenforced(const std::string& pointer, const std::string& message);
  void warn(const std::string& pointer, const std::string& message);
  std::string any_value();

  // ---- schemas (compiler.cpp)
  // The symbol deriving exactly the JSON texts that validate against `schema`.
  std::string value(const JsonValue& schema, const std::string& pointer);
  std::string conjunction(const JsonValue& schema, const std::string& pointer);
  // `schema` with unevaluatedProperties / unevaluatedItems in place rewritten as keywords the
  // compiler enforces (unevaluated.h), with this compiler's proofs that oneOf branches are
  // disjoint; `schema` itself when it has none.
  JsonValue without_unevaluated(const JsonValue& schema, const std::string& pointer);
  // One combinator of a flattened schema as alternatives, each to be conjoined with the rest
  // (which `merged` keeps). nullopt when `merged` has none left.
  struct Alternatives {
    std::vector<JsonValue> branches;
    std::vector<std::string> pointers;
  };
  std::optional<Alternatives> take_combinator(JsonValue& merged, const std::string& pointer);
  std::string plain(const JsonValue& schema, const std::string& pointer);

  // ---- oneOf (one_of.cpp)
  // True when no value can satisfy both (flattened) schemas, by a proof this compiler knows.
  bool provably_disjoint(const JsonValue& a, const JsonValue& b);
  bool disjoint_objects(const JsonValue& a, const JsonValue& b);

  // ---- not (negation.cpp)
  // A schema satisfied by exactly the values `schema` rejects: false, a plain schema or an anyOf
  // of them; nested schemas stay wrapped as {"not": ...} and are compiled when reached.
  JsonValue negate(const JsonValue& schema, const std::string& pointer);
  JsonValue negate_plain(const JsonValue& schema, const std::string& pointer);

  // ---- values of each type
  std::string constants(const JsonValue& schema, const std::string& pointer, unsigned types);
  // One constant value; `pointer` names it in warnings. enum and const compare numbers by value,
  // so an integral number also matches its spellings with a zero fraction (6.0 for 6) unless
  // `plain`: draft 4's `integer` refuses those spellings (plain_integers() says when).
  // `nested_plain`: the numbers inside an array or object constant are spelled plainly too.
  std::string literal(const JsonValue& item, const std::string& pointer, bool plain,
                      bool nested_plain);
  // Whether the constants of a schema with the types `types` must spell integers plainly: in
  // draft 4, where `integer` is a spelling (no fraction), wherever `number` is not allowed. Inside
  // array and object constants and finite item sets the schema that applies to a nested number
  // is not at hand, so there draft 4 always spells them plainly (sound: "6" is valid wherever the
  // value 6 is; "6.0" under enum [[6]] is refused).
  bool plain_integers(unsigned types) const;
  std::string number(const JsonValue& schema, const std::string& pointer, bool integer);
  std::string string(const JsonValue& schema, const std::string& pointer);
  // A string constraint as regular languages of canonically spelled quoted strings: every
  // positive part must match, no negative part may (compile_strings.cpp).
  struct StringParts {
    std::vector<std::string> positive;
    std::vector<std::string> negative;
    bool empty = false;      // no string satisfies the constraint
    bool canonical = false;  // some constraint: strings take their canonical spelling
  };
  StringParts string_parts(const JsonValue& schema, const std::string& pointer);
  // One terminal regex for the parts: the first positive part as the body, the others as
  // lookaheads (lexer/regex/lookahead_conjunction.h). Unconstrained: any JSON string, every escape.
  std::string string_regex(const StringParts& parts);
  std::string array(const JsonValue& schema, const std::string& pointer);
  std::string object(const JsonValue& schema, const std::string& pointer);
  std::optional<std::size_t> count(const JsonValue& schema, const std::string& pointer,
                                   const char* key);

  Bundle bundle_;  // the root with its references resolved to local pointers
  SchemaDocument document_;
  SchemaOptions options_;
  GrammarBuilder builder_;
  std::string source_name_;
  std::map<std::string, std::string> terminal_by_pattern_;
  std::map<std::string, std::string> memo_;
  std::vector<Diagnostic> warnings_;
  std::string any_value_;
  std::string never_;
  std::map<std::string, std::string> extra_list_;  // an extra-member symbol -> its list
  // A value symbol -> `COLON value`, shared by the members of optional runs (compile_objects.cpp).
  std::map<std::string, std::string> colon_value_;
  std::size_t nonterminal_count_ = 0;
  std::size_t distributed_ = 0;    // branches made by distributing combinators, for the budget
  std::string first_distributed_;  // where the first complement was distributed (for messages)
};

}  // namespace glrmask::json_schema::detail
