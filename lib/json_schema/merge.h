// allOf and `$ref` at the top of a schema, folded into one schema object. The compiler turns a
// schema into rules one keyword at a time, which needs every constraint on a value in one place;
// conjunctions are merged keyword by keyword: types intersected, required united, bounds
// tightened, enums intersected, shared properties combined with a nested allOf, patterns and
// formats collected into lists (internal_keywords.h), one part's additionalProperties applied to
// the properties the others declare. Combinators (anyOf, oneOf, not, if/then/else,
// dependentSchemas) are not merged: each part's combinators stay one conjunct of their own in
// internal::kAlso, which the compiler distributes. `dependencies` (drafts 4-7) is read as
// dependentRequired (array values) and dependentSchemas (schema values). Keywords beside `$ref`
// follow the document's draft (document.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lib/json_schema/document.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// Keywords that constrain instances (everything else is an annotation and is ignored), the
// compiler's internal ones included.
bool is_validation_keyword(std::string_view keyword);

// anyOf, oneOf, not, if, then, else, dependentSchemas, and internal::kAlso.
bool is_combinator_keyword(std::string_view keyword);

// The conjunction of `schema`'s own keywords, its `$ref` target and its allOf branches, as one
// schema object (or `false` when the parts contradict each other). The result has no $ref or
// allOf at its top, and at most one part's combinators at the top (the others in
// internal::kAlso). Throws glrmask::Error naming the pointer of a part that cannot be merged.
JsonValue flatten_conjunction(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer);

}  // namespace glrmask::json_schema
