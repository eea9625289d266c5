// Validation of one concrete JSON value against a schema, evaluated directly rather than compiled:
// for the finitely many values whose verdict the compiler needs (the members of an `enum` or a
// `const` beside other keywords, declared property names against `propertyNames`, the items of a
// finite set for `uniqueItems`). It follows the same reading of every keyword as the grammar does
// (draft rules, exact decimals, the compiler's format regexes, ECMA-262 patterns on the decoded
// string), so a value it keeps is one the grammar may spell.
#pragma once

#include <string>

#include "lib/json_schema/document.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// Throws glrmask::Error naming `pointer` for a keyword it cannot evaluate (a remote $ref, say).
bool instance_validates(const SchemaDocument& document, const JsonValue& schema,
                        const JsonValue& instance, const std::string& pointer);

// JSON Schema equality: numbers by value (1 == 1.0), true is not 1, objects ignore member order.
bool json_equal(const JsonValue& a, const JsonValue& b);

}  // namespace glrmask::json_schema
