// The errors glrmask reports, with what went wrong as fields and not only as text.
//
// Every failure that reaches a caller is a glrmask::Error: a one-line message that names the place
// (file:line:col of a grammar, the JSON pointer in a schema or tokenizer.json, the byte offset in
// the text, the token id), an ErrorCode saying what kind of failure it is, and the place again as
// fields of an ErrorLocation so a program need not parse the message. A token or text the
// constraint refuses is a RejectionError, which adds the terminals that were expected. The C ABI
// returns the same codes (glrmask.h), the Python module raises the same classes.
//
// This header is also the project's internal error type (lib/core/error.h includes it), so the
// library throws exactly these objects; nothing is translated at the API boundary.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "glrmask/export.hpp"

namespace glrmask {

// What kind of failure an Error reports. The numbers are stable: the C ABI returns them.
enum class ErrorCode : int {
  kInvalidArgument = 1,  // a bad option, size, id or path given by the caller
  kGrammar = 2,          // a grammar refused; the location names file:line:col
  kSchema = 3,           // a JSON Schema refused; the location names the JSON pointer
  kTokenizer = 4,        // a tokenizer.json refused
  kArtifact = 5,      // a compiled artifact refused (missing, corrupt, other grammar or tokenizer)
  kRejected = 6,      // the constraint refuses a token or bytes (a RejectionError)
  kLimit = 7,         // a configured limit (states, memory, time) was exceeded
  kIo = 8,            // a file could not be read or written
  kState = 9,         // the call is not allowed in the current state (after EOS, rollback too far)
  kUnsupported = 10,  // the grammar is outside what the chosen engine supports
  kInternal = 11,     // a bug in glrmask
};

// The name of a code as the C ABI and the messages spell it ("grammar", "rejected", ...).
GLRMASK_API const char* error_code_name(ErrorCode code) noexcept;

// Where an error applies. Fields that do not apply stay empty (strings) or at -1 / 0.
struct ErrorLocation {
  std::string file;               // the grammar, schema, tokenizer or artifact file
  std::uint32_t line = 0;         // 1-based; 0 when there is no line
  std::uint32_t column = 0;       // 1-based, in code points
  std::string json_pointer;       // in a JSON Schema or a tokenizer.json ("/properties/a")
  std::int64_t byte_offset = -1;  // in the decoded text (or in the file, for artifacts)
  std::int64_t token = -1;        // a vocabulary token id

  // The common shapes.
  static ErrorLocation in_file(std::string file, std::uint32_t line = 0, std::uint32_t column = 0) {
    ErrorLocation where;
    where.file = std::move(file);
    where.line = line;
    where.column = column;
    return where;
  }
  static ErrorLocation in_json(std::string file, std::string json_pointer) {
    ErrorLocation where;
    where.file = std::move(file);
    where.json_pointer = std::move(json_pointer);
    return where;
  }
  static ErrorLocation at_byte(std::int64_t byte_offset, std::int64_t token = -1) {
    ErrorLocation where;
    where.byte_offset = byte_offset;
    where.token = token;
    return where;
  }
  static ErrorLocation of_token(std::int64_t token) { return at_byte(-1, token); }
};

class GLRMASK_API Error : public std::runtime_error {
 public:
  // Every error says what kind of failure it is: there is no default code.
  explicit Error(const std::string& message, ErrorCode code, ErrorLocation where = {})
      : std::runtime_error(message), code_(code), where_(std::move(where)) {}

  ErrorCode code() const noexcept { return code_; }
  const ErrorLocation& where() const noexcept { return where_; }

 private:
  ErrorCode code_;
  ErrorLocation where_;
};

// A token or bytes the constraint does not allow after the text so far. where().byte_offset is
// the offset of the first byte at which the text stopped being completable, where().token the
// token id when a token was refused; expected() lists the grammar terminals that could have
// started there (sorted names; empty when the text was already complete or ended).
class GLRMASK_API RejectionError : public Error {
 public:
  RejectionError(const std::string& message, ErrorLocation where, std::vector<std::string> expected)
      : Error(message, ErrorCode::kRejected, std::move(where)), expected_(std::move(expected)) {}

  const std::vector<std::string>& expected() const noexcept { return expected_; }

 private:
  std::vector<std::string> expected_;
};

}  // namespace glrmask
