// unevaluatedProperties and unevaluatedItems (2019-09 / 2020-12), rewritten as keywords the
// compiler already enforces. Which members and items count as evaluated depends on which
// subschemas applied in place (allOf, anyOf, oneOf, if / then / else, dependentSchemas, $ref)
// succeed on the instance, so a schema with these keywords is first split into alternatives, each
// a conjunction whose evaluated set is known from its structure alone: the names its `properties`
// declare, the patterns of its `patternProperties`, "all" for additionalProperties (and for a
// nested unevaluated keyword); the prefixItems length, "all" for items, the `contains` schemas.
// In each alternative `unevaluatedProperties: S` becomes one more conjunct
// {properties: {n: true...}, patternProperties: {p: true...}, additionalProperties: S}, which
// the merge of conjunctions (merge.h) already applies exactly to every other key, and
// `unevaluatedItems: S` becomes {prefixItems: [true x k], items: S or one of the contains}.
//
// Each alternative evaluates at least what it names, and every valid instance lies in an
// alternative that names exactly what the instance has evaluated, so the rewritten schema
// accepts exactly the instances the original does:
//   allOf, $ref  the product of the parts' alternatives;
//   anyOf        one alternative per set of branches that match together (every matching branch
//                evaluates), the conjunction of those branches; no complements are needed, as a
//                smaller set only evaluates less; sets that add nothing to a smaller one drop;
//   oneOf        branch i with the complements of the others (the one that matches);
//   if           (if and then) with both evaluating, (not if and else) with else evaluating;
//   dependentSchemas {a: D}  "a absent", or "a present and D";
//   not          evaluates nothing and stays as it is.
// A part whose alternatives all evaluate the same stays as written (no split, no complements).
// Subschemas at other instance locations (property values, items) are compiled where they stand.
#pragma once

#include <functional>
#include <string>

#include "lib/json_schema/document.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// Whether unevaluatedProperties or unevaluatedItems stands in `schema` or in a subschema applied
// to the same instance ($ref, allOf, anyOf, oneOf, if / then / else, dependentSchemas), not
// counting `not`, whose schema is rewritten when its complement is taken. Always false before
// 2019-09, where both are unknown keywords (annotations).
bool has_unevaluated_in_place(const SchemaDocument& document, const JsonValue& schema);

// True when no value satisfies both schemas, by a proof; false when there is none. It spares a
// oneOf branch the complement of another branch it cannot overlap.
using DisjointProof = std::function<bool(const JsonValue&, const JsonValue&)>;

// `schema` rewritten so that no unevaluated keyword stands in place (the header comment): the
// same instances validate. Throws glrmask::Error naming the keyword's pointer when the evaluated
// set depends on more combinations of branches than the compiler enumerates.
JsonValue resolve_unevaluated(const SchemaDocument& document, const JsonValue& schema,
                              const std::string& pointer, const DisjointProof& disjoint = {});

}  // namespace glrmask::json_schema
