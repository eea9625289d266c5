// Bytes written as text: the one place that decides how a byte string appears in a message, a
// command's output or a JSON document.
//
//   json_quoted       a JSON string (RFC 8259), as Python's json.dumps(ensure_ascii=False)
//                     writes it; bytes that are not valid UTF-8 become U+FFFD (JSON strings hold
//                     characters, not bytes).
//   escape_bytes      C-style escapes for one line of text: printable ASCII as it is, \\, \n, \t,
//                     every other byte as \xNN, and valid UTF-8 characters from U+00A0 up as they
//                     are (or as \xNN per byte); in quotes by default. ByteStyle's options serve
//                     output formats that are read by tools or sit in a table cell.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace glrmask {

std::string json_quoted(std::string_view bytes);

struct ByteStyle {
  bool quoted = true;              // "..." with " written \"
  bool escape_backslash = true;    // \ written \\ (off: text that already holds escapes)
  bool keep_utf8 = true;           // valid UTF-8 from U+00A0 up as it is, else \xNN per byte
  bool hex_controls = false;       // \n and \t as \x0a and \x09 too
  std::string_view hex_also = {};  // ASCII characters also written as \xNN (a table's delimiters)
  std::size_t max_bytes = std::string_view::npos;  // longer: first and last max_bytes/2, "..."
};

std::string escape_bytes(std::string_view bytes, const ByteStyle& style = {});
void append_escaped_bytes(std::string& out, std::string_view bytes, const ByteStyle& style = {});

}  // namespace glrmask
