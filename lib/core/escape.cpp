#include "lib/core/escape.h"

#include <fmt/core.h>

#include "lib/core/unicode_utf8.h"

namespace glrmask {
namespace {

void append_hex(std::string& out, unsigned char byte) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += "\\x";
  out += kDigits[byte >> 4];
  out += kDigits[byte & 0xF];
}

// The length of the valid UTF-8 character at `pos` that is not a control character (U+00A0 and
// up), or 0.
std::size_t printable_utf8_length(std::string_view bytes, std::size_t pos) {
  const std::size_t length = utf8_sequence_length(static_cast<unsigned char>(bytes[pos]));
  if (length < 2 || pos + length > bytes.size()) return 0;
  const std::string_view sequence = bytes.substr(pos, length);
  if (find_invalid_utf8(sequence).has_value()) return 0;
  std::size_t at = 0;
  return decode_utf8(sequence, at) >= 0xA0 ? length : 0;
}

void append_part(std::string& out, std::string_view bytes, const ByteStyle& style) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    const char c = bytes[pos];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const std::size_t length = style.keep_utf8 ? printable_utf8_length(bytes, pos) : 0;
      if (length > 0) {
        out.append(bytes.substr(pos, length));
        pos += length;
      } else {
        append_hex(out, byte);
        ++pos;
      }
      continue;
    }
    ++pos;
    if (style.hex_also.find(c) != std::string_view::npos) {
      append_hex(out, byte);
    } else if ((c == '\\' && style.escape_backslash) || (c == '"' && style.quoted)) {
      out += '\\';
      out += c;
    } else if (c == '\n' && !style.hex_controls) {
      out += "\\n";
    } else if (c == '\t' && !style.hex_controls) {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      append_hex(out, byte);
    } else {
      out += c;
    }
  }
}

void append_json_valid(std::string& out, std::string_view utf8) {
  for (const char c : utf8) {
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
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        else
          out += c;
    }
  }
}

}  // namespace

std::string json_quoted(std::string_view bytes) {
  std::string out = "\"";
  while (!bytes.empty()) {
    const auto invalid = find_invalid_utf8(bytes);
    if (!invalid) {
      append_json_valid(out, bytes);
      break;
    }
    append_json_valid(out, bytes.substr(0, *invalid));
    out += "\\ufffd";
    bytes.remove_prefix(*invalid + 1);
  }
  out += '"';
  return out;
}

void append_escaped_bytes(std::string& out, std::string_view bytes, const ByteStyle& style) {
  if (style.quoted) out += '"';
  if (bytes.size() <= style.max_bytes) {
    append_part(out, bytes, style);
  } else {
    append_part(out, bytes.substr(0, style.max_bytes / 2), style);
    out += "...";
    append_part(out, bytes.substr(bytes.size() - style.max_bytes / 2), style);
  }
  if (style.quoted) out += '"';
}

std::string escape_bytes(std::string_view bytes, const ByteStyle& style) {
  std::string out;
  append_escaped_bytes(out, bytes, style);
  return out;
}

}  // namespace glrmask
