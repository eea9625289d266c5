#include "lib/core/file_io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
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

namespace {

const char* file_kind(mode_t mode) {
  if (S_ISLNK(mode)) return "it is a symbolic link";
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISFIFO(mode)) return "it is a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device";
  if (S_ISSOCK(mode)) return "it is a socket";
  return "it is not a regular file";
}

}  // namespace

void write_file_replacing(std::string_view bytes, const std::filesystem::path& path,
                          std::string_view what) {
  auto cannot_write = [&](std::string_view reason) {
    return Error(fmt::format("{}: cannot write the {}: {}", path.string(), what, reason),
                 ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  };
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0) {
    if (!S_ISREG(existing.st_mode)) throw cannot_write(file_kind(existing.st_mode));
  } else if (errno != ENOENT) {
    throw cannot_write(std::strerror(errno));
  }
  // A fresh name opened with O_CREAT | O_EXCL | O_NOFOLLOW: whatever already has that name (a
  // link planted where the temporary goes) makes the open fail and another name be drawn; it is
  // never opened. Mode 0666 less the umask, as for any file the user writes.
  std::random_device entropy;
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temporary = fmt::format("{}.{:08x}{:08x}.partial", path.string(), entropy(), entropy());
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) throw cannot_write(std::strerror(errno));
  }
  if (fd < 0) throw cannot_write("no unused temporary name beside it");
  auto fail = [&](int error) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return cannot_write(std::strerror(error));
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail(errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw cannot_write(std::strerror(error));
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw cannot_write(std::strerror(error));
  }
}

}  // namespace glrmask
