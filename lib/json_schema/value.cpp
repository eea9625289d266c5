#include "lib/json_schema/value.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "lib/core/error.h"
#include "lib/core/escape.h"

namespace glrmask::json_schema {
namespace {

JsonValue convert(simdjson::dom::element element) {
  JsonValue value;
  switch (element.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      value.kind = JsonValue::Kind::kNull;
      break;
    case simdjson::dom::element_type::BOOL:
      value.kind = JsonValue::Kind::kBool;
      value.boolean = element.get_bool().value_unsafe();
      break;
    case simdjson::dom::element_type::INT64:
      value.kind = JsonValue::Kind::kNumber;
      value.is_integer = true;
      value.integer = element.get_int64().value_unsafe();
      value.number = static_cast<double>(value.integer);
      break;
    case simdjson::dom::element_type::UINT64:
      // Above INT64_MAX: kept as a double only.
      value.kind = JsonValue::Kind::kNumber;
      value.number = static_cast<double>(element.get_uint64().value_unsafe());
      break;
    case simdjson::dom::element_type::DOUBLE:
      value.kind = JsonValue::Kind::kNumber;
      value.number = element.get_double().value_unsafe();
      break;
    case simdjson::dom::element_type::STRING:
      value.kind = JsonValue::Kind::kString;
      value.string = std::string(element.get_string().value_unsafe());
      break;
    case simdjson::dom::element_type::ARRAY:
      value.kind = JsonValue::Kind::kArray;
      {
        const simdjson::dom::array array = element.get_array().value_unsafe();
        for (simdjson::dom::element item : array) value.items.push_back(convert(item));
      }
      break;
    case simdjson::dom::element_type::OBJECT:
      value.kind = JsonValue::Kind::kObject;
      {
        const simdjson::dom::object object = element.get_object().value_unsafe();
        for (auto field : object)
          value.members.emplace_back(std::string(field.key), convert(field.value));
      }
      break;
  }
  return value;
}

// Python's repr() of a float: the shortest round-trip digits, always with a '.' or an exponent.
std::string python_float_text(double number) {
  std::string text = fmt::format("{}", number);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

void write(const JsonValue& value, std::string_view item_separator, std::string_view key_separator,
           std::string& out) {
  switch (value.kind) {
    case JsonValue::Kind::kNull:
      out += "null";
      return;
    case JsonValue::Kind::kBool:
      out += value.boolean ? "true" : "false";
      return;
    case JsonValue::Kind::kNumber:
      out += value.is_integer ? fmt::format("{}", value.integer) : python_float_text(value.number);
      return;
    case JsonValue::Kind::kString:
      out += quote_json_string(value.string);
      return;
    case JsonValue::Kind::kArray:
      out += '[';
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i) out += item_separator;
        write(value.items[i], item_separator, key_separator, out);
      }
      out += ']';
      return;
    case JsonValue::Kind::kObject:
      out += '{';
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        if (i) out += item_separator;
        out += quote_json_string(value.members[i].first);
        out += key_separator;
        write(value.members[i].second, item_separator, key_separator, out);
      }
      out += '}';
      return;
  }
}

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& [name, member] : members)
    if (name == key) return &member;
  return nullptr;
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return boolean == other.boolean;
    case Kind::kNumber:
      if (is_integer && other.is_integer) return integer == other.integer;
      return number == other.number;
    case Kind::kString:
      return string == other.string;
    case Kind::kArray:
      return items == other.items;
    case Kind::kObject:
      // JSON objects are unordered.
      if (members.size() != other.members.size()) return false;
      for (const auto& [name, member] : members) {
        const JsonValue* match = other.find(name);
        if (!match || !(*match == member)) return false;
      }
      return true;
  }
  return false;
}

JsonValue parse_json(std::string_view text, const std::string& source_name) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root))
    throw Error(fmt::format("{}: invalid JSON: {}", source_name, simdjson::error_message(error)));
  return convert(root);
}

std::string to_json_text(const JsonValue& value, std::string_view item_separator,
                         std::string_view key_separator) {
  std::string out;
  write(value, item_separator, key_separator, out);
  return out;
}

std::string quote_json_string(std::string_view utf8) {
  return json_quoted(utf8);
}

std::string pointer_append(const std::string& pointer, std::string_view token) {
  std::string out = pointer + "/";
  for (const char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace glrmask::json_schema
