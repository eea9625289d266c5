#include "lib/json_schema/value.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "lib/core/error.h"
#include "lib/core/escape.h"

namespace glrmask::json_schema {
namespace {

// Whether `token` is a JSON number (RFC 8259's grammar).
bool is_json_number(std::string_view token) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
    return i - start;
  };
  if (i < token.size() && token[i] == '-') ++i;
  if (i < token.size() && token[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < token.size() && token[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == token.size();
}

// The number tokens of a JSON text in document order (the order a DOM walk visits them), and the
// text with each valid one replaced by 0: simdjson refuses integers beyond 64 bits and doubles
// beyond the double range, which JSON allows and schemas use as bounds; the values are read from
// the tokens instead.
std::vector<std::string_view> number_tokens(std::string_view text, std::string& masked) {
  std::vector<std::string_view> out;
  masked.clear();
  masked.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t start = i;
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
      masked.append(text.substr(start, std::min(i, text.size()) - start));
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() &&
             std::string_view("0123456789.eE+-").find(text[end]) != std::string_view::npos)
        ++end;
      const std::string_view token = text.substr(i, end - i);
      if (is_json_number(token)) {
        out.push_back(token);
        masked += '0';
      } else {
        masked.append(token);  // simdjson reports it
      }
      i = end;
    } else {
      masked += c;
      ++i;
    }
  }
  return out;
}

// A number from its token: a double (infinite beyond the range), and an exact int64 when it is
// written without fraction or exponent and fits.
void read_number(std::string_view token, JsonValue& value) {
  const std::string text(token);
  value.number = std::strtod(text.c_str(), nullptr);
  value.is_integer = false;
  if (token.find_first_of(".eE") == std::string_view::npos) {
    errno = 0;
    const long long integer = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == 0) {
      value.is_integer = true;
      value.integer = integer;
    }
  }
  value.number_text = text;
}

JsonValue convert(simdjson::dom::element element, const std::vector<std::string_view>& numbers,
                  std::size_t& next_number) {
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
        for (simdjson::dom::element item : array)
          value.items.push_back(convert(item, numbers, next_number));
      }
      break;
    case simdjson::dom::element_type::OBJECT:
      value.kind = JsonValue::Kind::kObject;
      {
        const simdjson::dom::object object = element.get_object().value_unsafe();
        for (auto field : object)
          value.members.emplace_back(std::string(field.key),
                                     convert(field.value, numbers, next_number));
      }
      break;
  }
  if (value.kind == JsonValue::Kind::kNumber && next_number < numbers.size())
    read_number(numbers[next_number++], value);
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
      // Python writes an int exactly, however large, and a float as its repr.
      if (!value.number_text.empty() && value.number_text.find_first_of(".eE") == std::string::npos)
        out += value.number_text;
      else
        out +=
            value.is_integer ? fmt::format("{}", value.integer) : python_float_text(value.number);
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

std::optional<JsonValue> JsonValue::take(std::string_view key) {
  for (auto it = members.begin(); it != members.end(); ++it) {
    if (it->first != key) continue;
    JsonValue value = std::move(it->second);
    members.erase(it);
    return value;
  }
  return std::nullopt;
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
  std::string masked;
  const std::vector<std::string_view> numbers = number_tokens(text, masked);
  simdjson::dom::parser parser;
  simdjson::padded_string padded(masked);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root))
    throw Error(fmt::format("{}: invalid JSON: {}", source_name, simdjson::error_message(error)),
                ErrorCode::kSchema, ErrorLocation::in_file(source_name));
  std::size_t next_number = 0;
  return convert(root, numbers, next_number);
}

JsonValue make_bool(bool value) {
  JsonValue out;
  out.kind = JsonValue::Kind::kBool;
  out.boolean = value;
  return out;
}

JsonValue make_number(double value) {
  JsonValue out;
  out.kind = JsonValue::Kind::kNumber;
  out.number = value;
  if (std::floor(value) == value && std::fabs(value) < 9.0e18) {
    out.is_integer = true;
    out.integer = static_cast<std::int64_t>(value);
  }
  return out;
}

JsonValue make_string(std::string value) {
  JsonValue out;
  out.kind = JsonValue::Kind::kString;
  out.string = std::move(value);
  return out;
}

JsonValue make_array(std::vector<JsonValue> items) {
  JsonValue out;
  out.kind = JsonValue::Kind::kArray;
  out.items = std::move(items);
  return out;
}

JsonValue make_object(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue out;
  out.kind = JsonValue::Kind::kObject;
  out.members = std::move(members);
  return out;
}

JsonValue make_all_of(std::vector<JsonValue> parts) {
  return make_object({{"allOf", make_array(std::move(parts))}});
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
