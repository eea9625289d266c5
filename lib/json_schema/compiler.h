// JSON Schema → GrammarModel: a context-free grammar whose sentences are JSON texts that validate
// against the schema. Objects, arrays, anyOf and $ref become rules (recursion through $ref is
// plain recursion between nonterminals); strings, numbers and enum values become terminals whose
// regexes encode lengths, patterns, formats and numeric bounds exactly. docs/json_schema.md lists
// every keyword, the whitespace modes and each documented restriction.
//
// Soundness: by default the grammar never accepts an instance the schema rejects. A few valid
// spellings are refused by design (properties out of schema order unless PropertyOrder::kAny,
// non-canonical string escapes, exponents in bounded numbers; docs/json_schema.md has the list).
// A keyword this compiler cannot enforce exactly (uniqueItems over an infinite item set, a `not`
// or an overlapping `oneOf` whose complement is not exact, ...) is refused with a glrmask::Error
// naming its JSON pointer, unless `lenient` is set: then it is ignored (the grammar accepts more
// than the schema) and a warning naming the pointer is added to the grammar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lib/grammar/grammar_model.h"
#include "lib/json_schema/draft.h"
#include "lib/json_schema/references.h"
#include "lib/json_schema/string_spellings.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

enum class Whitespace : std::uint8_t {
  kDefault,   // exactly Python json.dumps: ", " between items, ": " after keys, nothing else
  kCompact,   // "," and ":", no whitespace anywhere
  kFlexible,  // any JSON whitespace between tokens, "," and ":"
};

// The order an object's members may come in (docs/json_schema.md, "Property order").
enum class PropertyOrder : std::uint8_t {
  // Declared properties in `properties` order (each optional one may be left out), then the
  // undeclared members (extras and required names `properties` does not declare) in any order.
  kSchema,
  // Any order. Each name is allowed at most once while an object declares at most 6 names;
  // above that required names are still tracked (at most 10 of them) and an optional declared
  // property may repeat, each occurrence validated against its schema.
  kAny,
};

struct SchemaOptions {
  Whitespace whitespace = Whitespace::kDefault;
  bool lenient = false;
  PropertyOrder property_order = PropertyOrder::kSchema;
  // maxLength and maxItems above this are lowered to it (with a warning): longer strings and
  // arrays are refused. Sound, and it keeps the lexer DFA (about 13 states per counted
  // character) and the unrolled item rules small. A minLength / minItems above it is refused.
  std::size_t repetition_cap = 1000;
  // A run of at least this many optional declared properties in schema order, that nothing
  // counts or tracks, becomes a left-recursive list instead of the member chain (0: never).
  // The chain's LR automaton grows as the run's length squared (after property i, any later
  // one may come); the list's grows linearly, and the GLR parser pays instead: after a comma
  // inside the run, one stack per property that may still come. docs/json_schema.md, "Long
  // runs of optional properties".
  std::size_t optional_list_min_run = 16;
  // The draft of a schema whose root has no `$schema` (or one this compiler does not know).
  Draft default_draft = Draft::k2020_12;
  // `format` asserted (the grammar enforces each format it knows: what a constrained decoder
  // wants) or, when false, an annotation (ignored), as the specification says from 2019-09 on.
  bool assert_format = true;
  // The JSON spellings a constrained string accepts (string_spellings.h): every spelling but
  // printable ASCII as \uXXXX by default; kEvery adds those (exact, a larger lexer).
  StringSpellings string_spellings = StringSpellings::kEncoders;
  // Documents a `$ref` may name by URI (the compiler never fetches one): each is parsed and
  // bundled when a reference first reaches it (references.h).
  std::vector<RegisteredDocument> documents = {};
};

// Throws glrmask::Error "<source_name>#<pointer>: <reason>" for a malformed schema, a bad $ref
// or (unless lenient) an unsupported keyword.
GrammarModel compile_json_schema(const JsonValue& schema, const std::string& source_name,
                                 const SchemaOptions& options = {});
GrammarModel compile_json_schema_text(std::string_view schema_text, const std::string& source_name,
                                      const SchemaOptions& options = {});
GrammarModel load_json_schema_file(const std::filesystem::path& path,
                                   const SchemaOptions& options = {});

// Any JSON value (the schema `true`), under the given whitespace mode.
GrammarModel json_grammar(const SchemaOptions& options = {});

// Parses "default", "compact" or "flexible"; throws glrmask::Error otherwise.
Whitespace parse_whitespace(std::string_view name);
// Parses "schema" or "any"; throws glrmask::Error otherwise.
PropertyOrder parse_property_order(std::string_view name);

}  // namespace glrmask::json_schema
