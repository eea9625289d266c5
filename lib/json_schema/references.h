// Reference resolution: `$id` (draft 4: `id`), `$anchor`, `$dynamicAnchor`, `$recursiveAnchor`,
// and documents the caller registers by URI, bundled into one document whose every reference is
// a local JSON pointer, so the rest of the compiler follows `#/...` pointers only.
//
// The bundle is the root schema with the registered documents it reaches (directly or through
// other documents) appended under an internal keyword, in the order they were first reached, and
// each `$ref` in a schema position rewritten to the JSON pointer of its target. A `$ref` is
// resolved against the base URI in force where it stands (RFC 3986: the nearest enclosing `$id`,
// then the document's URI); its fragment is empty, a JSON pointer into the resource it names, or
// an anchor name. Identifiers count only in schema positions (never inside `enum`, `const`,
// `default`, `examples` or an unknown keyword), and drafts 4 to 7 ignore the `$id` beside a `$ref`.
//
// `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) are resolved where the dynamic scope
// does not matter: the target bears no dynamic anchor of that name (a plain reference), the root
// resource bears one (it is the outermost scope of every evaluation), or the target's is the only
// one of its name in the bundle. Otherwise the reference is refused: which schema it names then
// depends on the path that reached it. Resolved, each becomes an `allOf` with a `$ref`.
//
// Nothing is fetched: a reference to a document that is not registered is an error naming it.
// A root whose `$schema` names a registered metaschema with a `$vocabulary` that leaves out the
// validation vocabulary has that vocabulary's keywords (type, enum, minimum, ...) dropped.
#pragma once

#include <string>
#include <vector>

#include "lib/json_schema/draft.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// A document the caller registers under a URI (a remote `$ref`'s target).
struct RegisteredDocument {
  std::string uri;
  std::string text;  // the document's JSON text
};

struct Bundle {
  JsonValue root;
  // The URI each appended document was registered under, by position under the internal
  // keyword (messages name a place in one of them as "URI#/pointer").
  std::vector<std::string> document_uris;
};

// Throws glrmask::Error naming the `$ref`'s place (`source_name#/pointer/$ref`, or
// `URI#/pointer/$ref` inside a registered document) for a reference that names nothing, an
// unregistered document, an unknown anchor, or a dynamic reference that resolves differently on
// different paths; and for a registered document that is not JSON.
// "<source_name>#<pointer>" for a place in the root schema, "<URI>#<pointer>" for one in an
// appended document (`uris`: Bundle::document_uris).
std::string bundle_place(const std::string& source_name, const std::vector<std::string>& uris,
                         const std::string& pointer);

//
// With `formats_as_annotations` every `format` keyword in a schema position is dropped on the
// way (SchemaOptions::assert_format false: the specification's default from 2019-09 on).
Bundle bundle_references(const JsonValue& root, const std::string& source_name, Draft draft,
                         const std::vector<RegisteredDocument>& registry,
                         bool formats_as_annotations = false);

}  // namespace glrmask::json_schema
