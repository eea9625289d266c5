#include "lib/grammar/grammar_error.h"

#include <fmt/format.h>

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

}  // namespace glrmask
