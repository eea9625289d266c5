// The schema being compiled, as the parts of the compiler see it: the root value, its name for
// messages, local `$ref` resolution ("#", "#/$defs/x", "#/definitions/x", any JSON pointer) and
// the draft the root's `$schema` names, which decides a few keyword meanings.
#pragma once

#include <string>
#include <vector>

#include "lib/core/error.h"
#include "lib/json_schema/draft.h"
#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

// The draft a root schema declares with `$schema`; `fallback` when it declares none or one this
// compiler does not know (SchemaOptions::default_draft, 2020-12 unless set, as python-jsonschema).
Draft detect_draft(const JsonValue& root, Draft fallback = Draft::k2020_12);

// The place a string made by SchemaDocument::where ("<source_name>#<pointer>") names, as the
// fields of an error: the source name before the first '#', the JSON pointer after it. A string
// without '#' is taken as a pointer alone.
ErrorLocation schema_location(const std::string& where);

class SchemaDocument {
 public:
  // `document_uris`: the URIs of the documents a bundle appended (references.h), for messages.
  SchemaDocument(const JsonValue& root, std::string source_name,
                 Draft fallback_draft = Draft::k2020_12,
                 std::vector<std::string> document_uris = {});

  const JsonValue& root() const { return root_; }
  Draft draft() const { return draft_; }
  // Drafts 4-7: a schema with `$ref` is that reference alone; its other keywords are ignored.
  bool ref_overrides_siblings() const { return draft_ <= Draft::k7; }

  // The JSON pointer a `$ref` value names. Throws (naming `where`, the pointer of the $ref
  // keyword) for a non-string, a reference outside this document, or a pointer to nothing.
  std::string resolve_ref(const JsonValue& ref, const std::string& where) const;
  // The value at a pointer that resolve_ref returned.
  const JsonValue& at(const std::string& pointer) const;

  // "<source_name>#<pointer>", the place named in messages.
  std::string where(const std::string& pointer) const;
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const;

 private:
  const JsonValue* find(const std::string& pointer) const;

  const JsonValue& root_;
  std::string source_name_;
  Draft draft_;
  std::vector<std::string> document_uris_;
};

}  // namespace glrmask::json_schema
