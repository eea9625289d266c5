// An owned JSON value tree, as the JSON Schema compiler needs it: members keep their document
// order (properties are emitted in schema order), numbers keep both their value and whether they
// were written as integers, and schemas can be built and merged in memory (allOf), which the
// read-only simdjson DOM cannot do. Parsing goes through simdjson.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace glrmask::json_schema {

struct JsonValue {
  enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  // Numbers written without fraction or exponent that fit in 64 bits keep their exact value here.
  bool is_integer = false;
  std::int64_t integer = 0;
  std::string string;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;
  // A number read from JSON text keeps that text ("0.10", "1e-7", "18446744073709551616"), so
  // bounds and multiples are exact decimals; empty for numbers built in memory.
  std::string number_text;

  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_number() const { return kind == Kind::kNumber; }
  // The member named `key` of an object, or nullptr (also for non-objects).
  const JsonValue* find(std::string_view key) const;
  // Removes the first member named `key` and returns its value; nullopt when there is none.
  std::optional<JsonValue> take(std::string_view key);
  bool operator==(const JsonValue& other) const;
};

JsonValue make_bool(bool value);
JsonValue make_number(double value);
JsonValue make_string(std::string value);
JsonValue make_array(std::vector<JsonValue> items = {});
JsonValue make_object(std::vector<std::pair<std::string, JsonValue>> members = {});
// {"allOf": [parts...]}.
JsonValue make_all_of(std::vector<JsonValue> parts);

// Parses JSON text. Throws glrmask::Error naming `source_name` and simdjson's reason.
JsonValue parse_json(std::string_view text, const std::string& source_name);

// JSON text with the given separators: Python's json.dumps default is (", ", ": "), its compact
// form (",", ":"). Strings are escaped as json.dumps(ensure_ascii=False) does.
std::string to_json_text(const JsonValue& value, std::string_view item_separator = ", ",
                         std::string_view key_separator = ": ");

// The JSON text of one string, quotes included, escaped as json.dumps(ensure_ascii=False) does.
std::string quote_json_string(std::string_view utf8);

// Appends a JSON Pointer reference token (RFC 6901: "~" -> "~0", "/" -> "~1") to `pointer`.
std::string pointer_append(const std::string& pointer, std::string_view token);

}  // namespace glrmask::json_schema
