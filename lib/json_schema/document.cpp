#include "lib/json_schema/document.h"

#include <fmt/format.h>

#include <cstdlib>

#include "lib/core/error.h"
#include "lib/json_schema/references.h"

namespace glrmask::json_schema {
namespace {

// Undoes URI percent-encoding (a fragment may spell "%24defs" for "$defs").
std::string percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const std::string hex = text.substr(i + 1, 2);
      char* end = nullptr;
      const long value = std::strtol(hex.c_str(), &end, 16);
      if (end == hex.c_str() + 2) {
        out += static_cast<char>(value);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace

Draft parse_draft(std::string_view name) {
  if (name == "4" || name == "3") return Draft::k4;
  if (name == "6") return Draft::k6;
  if (name == "7") return Draft::k7;
  if (name == "2019-09") return Draft::k2019_09;
  if (name == "2020-12") return Draft::k2020_12;
  throw Error(fmt::format("unknown JSON Schema draft '{}' (4, 6, 7, 2019-09 or 2020-12)", name),
              ErrorCode::kInvalidArgument);
}

Draft detect_draft(const JsonValue& root, Draft fallback) {
  const JsonValue* schema = root.find("$schema");
  if (!schema || !schema->is_string()) return fallback;
  const std::string& uri = schema->string;
  if (uri.find("draft-03") != std::string::npos || uri.find("draft-04") != std::string::npos)
    return Draft::k4;
  if (uri.find("draft-06") != std::string::npos) return Draft::k6;
  if (uri.find("draft-07") != std::string::npos) return Draft::k7;
  if (uri.find("2019-09") != std::string::npos) return Draft::k2019_09;
  if (uri.find("2020-12") != std::string::npos) return Draft::k2020_12;
  return fallback;
}

SchemaDocument::SchemaDocument(const JsonValue& root, std::string source_name, Draft fallback_draft,
                               std::vector<std::string> document_uris)
    : root_(root),
      source_name_(std::move(source_name)),
      draft_(detect_draft(root, fallback_draft)),
      document_uris_(std::move(document_uris)) {}

ErrorLocation schema_location(const std::string& where) {
  const std::size_t hash = where.find('#');
  if (hash == std::string::npos) return ErrorLocation::in_json("", where);
  return ErrorLocation::in_json(where.substr(0, hash), where.substr(hash + 1));
}

std::string SchemaDocument::where(const std::string& pointer) const {
  return bundle_place(source_name_, document_uris_, pointer);
}

void SchemaDocument::fail(const std::string& pointer, const std::string& message) const {
  const std::string place = where(pointer);
  throw Error(fmt::format("{}: {}", place, message), ErrorCode::kSchema, schema_location(place));
}

const JsonValue* SchemaDocument::find(const std::string& pointer) const {
  const JsonValue* node = &root_;
  std::size_t pos = 0;
  while (pos < pointer.size()) {
    if (pointer[pos] != '/') return nullptr;
    std::size_t end = pointer.find('/', pos + 1);
    if (end == std::string::npos) end = pointer.size();
    std::string token;
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end && pointer[i + 1] == '0') {
        token += '~';
        ++i;
      } else if (pointer[i] == '~' && i + 1 < end && pointer[i + 1] == '1') {
        token += '/';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    if (node->is_object()) {
      node = node->find(token);
    } else if (node->is_array()) {
      char* digits_end = nullptr;
      const unsigned long index = std::strtoul(token.c_str(), &digits_end, 10);
      if (token.empty() || *digits_end != '\0' || index >= node->items.size()) return nullptr;
      node = &node->items[index];
    } else {
      return nullptr;
    }
    if (!node) return nullptr;
    pos = end;
  }
  return node;
}

std::string SchemaDocument::resolve_ref(const JsonValue& ref, const std::string& where) const {
  if (!ref.is_string()) fail(where, "$ref must be a string");
  const std::string& text = ref.string;
  if (text.empty() || text[0] != '#')
    fail(where,
         fmt::format("$ref \"{}\" was not resolved (a reference outside a schema position)", text));
  const std::string pointer = percent_decode(text.substr(1));
  if (!pointer.empty() && pointer[0] != '/')
    fail(where,
         fmt::format("$ref \"{}\" was not resolved (a reference outside a schema position)", text));
  if (!find(pointer)) fail(where, fmt::format("$ref \"{}\" points to nothing", text));
  return pointer;
}

const JsonValue& SchemaDocument::at(const std::string& pointer) const {
  const JsonValue* node = find(pointer);
  if (!node) fail(pointer, "no value at this pointer");
  return *node;
}

}  // namespace glrmask::json_schema
