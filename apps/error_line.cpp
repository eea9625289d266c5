#include "apps/error_line.h"

#include <fmt/format.h>

namespace glrmask::app {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string error_line(std::string_view message, std::size_t max_bytes) {
  std::string line;
  line.reserve(message.size());
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\t') {
      line += "\\t";
    } else if (c == '\r') {
      line += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      line += fmt::format("\\x{:02x}", byte);
    } else {
      line += c;
    }
  }
  if (line.size() <= max_bytes) return line;
  std::size_t head = max_bytes / 2;
  std::size_t tail_start = line.size() - max_bytes / 2;
  while (head > 0 && is_continuation_byte(line[head])) --head;
  while (tail_start < line.size() && is_continuation_byte(line[tail_start])) ++tail_start;
  return fmt::format("{} ... [{} bytes left out] ... {}", line.substr(0, head), tail_start - head,
                     line.substr(tail_start));
}

}  // namespace glrmask::app
