#include "lib/core/token_terminal.h"

#include <fmt/format.h>

namespace glrmask {

std::string token_terminal_bytes(std::uint32_t id) {
  std::string bytes(kTokenTerminalSize, '\0');
  bytes[0] = static_cast<char>(kTokenTerminalLead);
  for (std::size_t i = 0; i < 4; ++i)
    bytes[1 + i] = static_cast<char>((id >> (8 * (3 - i))) & 0xFF);
  return bytes;
}

std::optional<std::uint32_t> token_spelling_id(std::string_view spelling) {
  if (spelling.size() < 5 || !spelling.starts_with("<[") || !spelling.ends_with("]>"))
    return std::nullopt;
  const std::string_view digits = spelling.substr(2, spelling.size() - 4);
  if (digits.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > UINT32_MAX) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

std::string token_id_spelling(std::uint32_t id) {
  return fmt::format("<[{}]>", id);
}

}  // namespace glrmask
