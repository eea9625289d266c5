#include "lib/core/file_io.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "lib/core/error.h"

namespace glrmask {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(fmt::format("{}: cannot open the file", path.string()), ErrorCode::kIo,
                ErrorLocation::in_file(path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw Error(fmt::format("{}: cannot read the file", path.string()), ErrorCode::kIo,
                ErrorLocation::in_file(path.string()));
  return text.str();
}

}  // namespace glrmask
