#include "lib/grammar/grammar_error.h"

#include <fmt/format.h>

#include <optional>

namespace glrmask {

std::string SourceLocation::str() const {
  if (line == 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string Diagnostic::str() const {
  return fmt::format("{}: warning: {}", where.str(), message);
}

GrammarError::GrammarError(SourceLocation where, const std::string& message)
    : Error(fmt::format("{}: {}", where.str(), message), ErrorCode::kGrammar,
            ErrorLocation::in_file(where.file, where.line, where.column)),
      location_(std::move(where)),
      message_(message) {}

ErrorLocation parse_source_location(std::string_view text) {
  // A number of at most 9 digits at `i`, which moves past it.
  const auto number = [&](std::size_t& i) -> std::optional<std::uint32_t> {
    const std::size_t begin = i;
    std::uint32_t value = 0;
    while (i < text.size() && i - begin < 9 && text[i] >= '0' && text[i] <= '9')
      value = value * 10 + static_cast<std::uint32_t>(text[i++] - '0');
    if (i == begin || (i < text.size() && text[i] >= '0' && text[i] <= '9')) return std::nullopt;
    return value;
  };
  for (std::size_t colon = text.find(':'); colon != std::string_view::npos;
       colon = text.find(':', colon + 1)) {
    std::size_t i = colon + 1;
    const std::optional<std::uint32_t> line = number(i);
    if (!line || i >= text.size() || text[i] != ':') continue;
    ++i;
    const std::optional<std::uint32_t> column = number(i);
    if (!column || (i < text.size() && text[i] != ':')) continue;
    return ErrorLocation::in_file(std::string(text.substr(0, colon)), *line, *column);
  }
  return ErrorLocation::in_file(std::string(text.substr(0, text.find(": "))));
}

Error internal_grammar_error(const SourceLocation& where, const std::string& message) {
  const std::string text = where.file.empty()
                               ? fmt::format("internal error: {}", message)
                               : fmt::format("{}: internal error: {}", where.str(), message);
  return Error(text, ErrorCode::kInternal,
               ErrorLocation::in_file(where.file, where.line, where.column));
}

}  // namespace glrmask
