#include "glrmask/error.hpp"

namespace glrmask {

const char* error_code_name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kGrammar:
      return "grammar";
    case ErrorCode::kSchema:
      return "schema";
    case ErrorCode::kTokenizer:
      return "tokenizer";
    case ErrorCode::kArtifact:
      return "artifact";
    case ErrorCode::kRejected:
      return "rejected";
    case ErrorCode::kLimit:
      return "limit";
    case ErrorCode::kIo:
      return "io";
    case ErrorCode::kState:
      return "state";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "unknown";
}

}  // namespace glrmask
