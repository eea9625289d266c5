#include "apps/error_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "lib/core/escape.h"

namespace glrmask::app {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The library's messages name the API field an error is about; the program's users set it with
// an option. A budget becomes "max_step_work; raise it with --max-step-work", an option field
// the option itself ("GrammarOptions::postlex python" -> "--postlex python").
constexpr std::pair<std::string_view, std::string_view> kFieldOptions[] = {
    {"GrammarOptions::start", "--start"},
    {"GrammarOptions::policy", "--policy"},
    {"GrammarOptions::skippable", "--skippable"},
    {"GrammarOptions::postlex", "--postlex"},
    {"JsonOptions::whitespace", "--json-whitespace"},
    {"JsonOptions::lenient", "--json-schema-lenient"},
    {"JsonOptions::property_order", "--json-property-order"},
    {"JsonOptions::default_draft", "--json-schema-draft"},
    {"JsonOptions::assert_format", "--json-format"},
    {"JsonOptions::documents", "--json-schema-ref"},
};

}  // namespace

std::string with_options(std::string_view message) {
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    std::size_t found = message.find("Limits::max_", at);
    std::size_t length = 0;
    std::string replacement;
    if (found != std::string_view::npos) {
      std::size_t end = found + 8;
      while (end < message.size() &&
             (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_'))
        ++end;
      length = end - found;
      const std::string field(message.substr(found + 8, length - 8));
      std::string option = "--" + field;
      std::replace(option.begin(), option.end(), '_', '-');
      replacement = field + "; raise it with " + option;
    }
    for (const auto& [name, option] : kFieldOptions) {
      const std::size_t other = message.find(name, at);
      if (other != std::string_view::npos && other < found) {
        found = other;
        length = name.size();
        replacement = option;
      }
    }
    if (found == std::string_view::npos) {
      out.append(message.substr(at));
      break;
    }
    out.append(message.substr(at, found - at));
    out += replacement;
    at = found + length;
  }
  return out;
}

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
