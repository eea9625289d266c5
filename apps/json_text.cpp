#include "apps/json_text.h"

#include "lib/core/unicode_utf8.h"
#include "lib/json_schema/value.h"

namespace glrmask::app {
namespace {

// Escaped as the JSON Schema writer escapes (json.dumps style), without the quotes.
void append_escaped_valid(std::string& out, std::string_view valid) {
  const std::string quoted = json_schema::quote_json_string(valid);
  out.append(quoted, 1, quoted.size() - 2);
}

}  // namespace

std::string json_string(std::string_view bytes) {
  std::string out = "\"";
  while (!bytes.empty()) {
    const auto invalid = find_invalid_utf8(bytes);
    if (!invalid) {
      append_escaped_valid(out, bytes);
      break;
    }
    append_escaped_valid(out, bytes.substr(0, *invalid));
    out += "\\ufffd";
    bytes.remove_prefix(*invalid + 1);
  }
  out += '"';
  return out;
}

bool is_valid_utf8(std::string_view bytes) {
  return !find_invalid_utf8(bytes).has_value();
}

}  // namespace glrmask::app
