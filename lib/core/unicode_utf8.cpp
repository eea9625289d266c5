#include "lib/core/unicode_utf8.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <unicode/utf8.h>

#include "lib/core/error.h"

namespace glrmask {

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
  if (simdjson::validate_utf8(text.data(), text.size())) return std::nullopt;
  // Slow path, only on failure: ICU's decoder finds where the ill-formed sequence starts.
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  int32_t i = 0;
  while (i < length) {
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return static_cast<std::size_t>(start);
  }
  return std::nullopt;  // not reached for texts below 2 GiB: simdjson and ICU agree on validity
}

void require_valid_utf8(std::string_view text, std::string_view what) {
  if (auto offset = find_invalid_utf8(text))
    throw Error(fmt::format("{}: invalid UTF-8 at byte offset {}", what, *offset),
                ErrorCode::kInvalidArgument,
                ErrorLocation::at_byte(static_cast<std::int64_t>(*offset)));
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

}  // namespace glrmask
