// Errors that reach a user. Every message names the place: a file with line and column, a byte
// offset, or a token id. The command-line tools print `what()` on one line and exit with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace glrmask {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace glrmask
