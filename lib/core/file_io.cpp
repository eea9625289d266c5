#include "lib/core/file_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "lib/core/error.h"

namespace glrmask {

std::string read_text_file(const std::filesystem::path& path) {
  // A folder opens as a stream that reads as empty text on Linux: refuse it by name first. Pipes
  // and character devices stay readable (`<(command)`, /dev/stdin) since their reader is meant to
  // wait for the writer.
  std::error_code status_error;
  if (std::filesystem::is_directory(path, status_error))
    throw Error(fmt::format("{}: cannot read the file: it is a directory", path.string()),
                ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(fmt::format("{}: cannot open the file: {}", path.string(),
                            errno != 0 ? std::strerror(errno) : "unknown error"),
                ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw Error(fmt::format("{}: cannot read the file", path.string()), ErrorCode::kIo,
                ErrorLocation::in_file(path.string()));
  return text.str();
}

}  // namespace glrmask
