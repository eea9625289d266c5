#include "apps/json_text.h"

#include <fmt/format.h>

#include "lib/unicode_utf8.h"

namespace glrmask::app {
namespace {

void append_escaped_valid(std::string& out, std::string_view valid) {
  for (const char c : valid) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += c;
    }
  }
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
