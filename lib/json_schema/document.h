// The schema being compiled, as the parts of the compiler see it: the root value, its name for
// messages, and local `$ref` resolution ("#", "#/$defs/x", "#/definitions/x", any JSON pointer).
#pragma once

#include <string>

#include "lib/json_schema/value.h"

namespace glrmask::json_schema {

class SchemaDocument {
 public:
  SchemaDocument(const JsonValue& root, std::string source_name);

  const JsonValue& root() const { return root_; }

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
};

}  // namespace glrmask::json_schema
