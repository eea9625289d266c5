// lib/core/escape.h: the one way bytes are written as text (messages, command output, JSON).
#include "lib/core/escape.h"

#include <catch2/catch.hpp>
#include <string>

namespace glrmask {
namespace {

using namespace std::string_literals;

TEST_CASE("escape_bytes writes printable ASCII and UTF-8 as they are and the rest as escapes") {
  CHECK(escape_bytes("plain text") == "\"plain text\"");
  CHECK(escape_bytes("a\"b\\c") == R"("a\"b\\c")");
  CHECK(escape_bytes("\n\t") == R"("\n\t")");
  CHECK(escape_bytes("\x01\x7f\r"s) == R"("\x01\x7f\x0d")");
  CHECK(escape_bytes("\0"s) == R"("\x00")");
  // U+00E9 is kept; U+0085 (a C1 control) and a lone continuation byte are not characters to show.
  CHECK(escape_bytes("\xc3\xa9\xc2\x85\x80") == R"("é\xc2\x85\x80")");
  // A truncated sequence at the end and an overlong form are bytes, not characters.
  CHECK(escape_bytes("\xe2\x82") == R"("\xe2\x82")");
  CHECK(escape_bytes("\xc0\xaf") == R"("\xc0\xaf")");
}

TEST_CASE("ByteStyle serves table cells and tools") {
  const ByteStyle cell{
      .quoted = false, .keep_utf8 = false, .hex_controls = true, .hex_also = "\\`|"};
  CHECK(escape_bytes("a\"b\\c`d|e\n\xc3\xa9", cell) == R"(a"b\x5cc\x60d\x7ce\x0a\xc3\xa9)");
  const ByteStyle field{.quoted = false};
  CHECK(escape_bytes("say \"hi\"\t\\", field) == R"(say "hi"\t\\)");
  std::string out = "x=";
  append_escaped_bytes(out, "\n", {.quoted = false});
  CHECK(out == R"(x=\n)");
  // A message that quotes escape_bytes' output already: its escapes are kept as they are, and
  // only its own control bytes are escaped.
  const ByteStyle message{.quoted = false, .escape_backslash = false};
  CHECK(escape_bytes("bad \"a\\nb\"\nsecond line\x01", message) ==
        R"(bad "a\nb"\nsecond line\x01)");
}

TEST_CASE("escape_bytes shortens long input to its two ends") {
  const std::string long_text = std::string(30, 'a') + std::string(30, 'b');
  CHECK(escape_bytes(long_text, {.max_bytes = 10}) == "\"aaaaa...bbbbb\"");
  CHECK(escape_bytes("short", {.max_bytes = 10}) == "\"short\"");
}

TEST_CASE("json_quoted writes a JSON string as json.dumps(ensure_ascii=False) does") {
  CHECK(json_quoted("") == "\"\"");
  CHECK(json_quoted("a\"b\\c/") == R"("a\"b\\c/")");
  CHECK(json_quoted("\b\f\n\r\t\x01\x1f\x7f") == "\"\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"");
  CHECK(json_quoted("\xc3\xa9\xf0\x9f\x98\x80") == "\"\xc3\xa9\xf0\x9f\x98\x80\"");
  // JSON strings hold characters: each byte of an ill-formed sequence becomes U+FFFD.
  CHECK(json_quoted("a\xff"
                    "b\xc3") == R"("a\ufffdb\ufffd")");
}

}  // namespace
}  // namespace glrmask
