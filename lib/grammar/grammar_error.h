// Places in grammar text, and the two ways a grammar front-end reports about them: a GrammarError
// (the grammar is refused) and a Diagnostic (a warning the caller may print; the library never
// prints anything itself).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
  // The JSON pointer the warning is about, for a JSON Schema front end ("" otherwise).
  std::string json_pointer = {};

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

// The place a message prefix "file:line:col" names (SourceLocation::str(), as the lexer's
// TerminalSpec::origin holds it), as the fields of an error; what follows the column (": terminal
// NAME") is ignored. Text without a line and column names a file alone: the text before its first
// ": ", or all of it.
ErrorLocation parse_source_location(std::string_view text);

// A broken invariant of a grammar front end, noticed at `where` (the grammar is not at fault):
// an Error with ErrorCode::kInternal whose what() is "file:line:col: internal error: <message>"
// (without the place when `where` names no file), and whose where() holds the place.
Error internal_grammar_error(const SourceLocation& where, const std::string& message);

}  // namespace glrmask
