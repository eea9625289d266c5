// allOf and `$ref` at the top of a schema, folded into one schema object. The compiler turns a
// schema into rules one keyword at a time, which needs every constraint on a value in one place;
// conjunctions are merged keyword by keyword (types intersected, required united, bounds
// tightened, shared properties combined with a nested allOf, additionalProperties of one part
// applied to the properties the others declare) and refused where no merge is exact.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// Keywords that constrain instances (everything else is an annotation and is ignored).
bool is_validation_keyword(std::string_view keyword);

// The conjunction of `schema`'s own keywords, its `$ref` target and its allOf branches, as one
// schema object (or `false` when the parts contradict each other). The result has no $ref or
// allOf at its top. Throws glrmask::Error naming the pointer of a part that cannot be merged.
JsonValue flatten_conjunction(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer);

}  // namespace glrmask::json_schema
