#include "apps/error_line.h"

#include <fmt/format.h>

#include "lib/core/escape.h"

namespace glrmask::app {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string error_line(std::string_view message, std::size_t max_bytes) {
  // The library's messages quote user bytes through escape_bytes already, so their backslashes
  // are kept as they are; only what is left (a message's own line breaks) is escaped here.
  const std::string line = escape_bytes(message, {.quoted = false, .escape_backslash = false});
  if (line.size() <= max_bytes) return line;
  std::size_t head = max_bytes / 2;
  std::size_t tail_start = line.size() - max_bytes / 2;
  while (head > 0 && is_continuation_byte(line[head])) --head;
  while (tail_start < line.size() && is_continuation_byte(line[tail_start])) ++tail_start;
  return fmt::format("{} ... [{} bytes left out] ... {}", line.substr(0, head), tail_start - head,
                     line.substr(tail_start));
}

}  // namespace glrmask::app
