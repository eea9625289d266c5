// Places in grammar text, and the two ways a grammar front-end reports about them: a GrammarError
// (the grammar is refused) and a Diagnostic (a warning the caller may print; the library never
// prints anything itself).
#pragma once

#include <cstdint>
#include <string>

#include "lib/core/error.h"

namespace glrmask {

// A position in a grammar file. Lines and columns count from 1; columns count Unicode code points,
// as editors do. A default-constructed location (line 0) means "no particular place in the file".
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  // "file:line:col", or just "file" when there is no line.
  std::string str() const;
  bool operator==(const SourceLocation&) const = default;
};

struct Diagnostic {
  SourceLocation where;
  std::string message;

  // "file:line:col: warning: message"
  std::string str() const;
};

// A grammar that cannot be used. what() is "file:line:col: message"; code() is
// ErrorCode::kGrammar and where() holds the file, line and column as well.
class GrammarError : public Error {
 public:
  GrammarError(SourceLocation where, const std::string& message);

  const SourceLocation& location() const { return location_; }
  // The message without the location prefix.
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

}  // namespace glrmask
