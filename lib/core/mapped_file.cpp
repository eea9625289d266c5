#include "lib/core/mapped_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "lib/core/error.h"

namespace glrmask {

namespace {

constexpr std::size_t kBufferAlignment = 64;

// Closes the descriptor on every path out of open().
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; the
  // descriptor is then refused below as not a regular file (for which the flag changes nothing).
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0)
    throw Error(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)),
                ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode))
    throw Error(fmt::format("{}: cannot open: not a regular file{}", path.string(),
                            S_ISDIR(status.st_mode) ? " (a directory)" : ""),
                ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->size_ = static_cast<std::size_t>(status.st_size);
  if (file->size_ == 0) return file;
  // Pages are mapped as they are first read, not all up front (no MAP_POPULATE): a compiled
  // artifact's loader reads its tables (a tenth of the file) and leaves each token set's image
  // to that set's first use, so populating would map ten times the pages a load touches.
  void* mapped = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (mapped != MAP_FAILED) {
    file->data_ = static_cast<const char*>(mapped);
    file->mapped_ = true;
    return file;
  }
  // Some file systems cannot map; read the bytes instead.
  const std::size_t rounded =
      (file->size_ + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  char* buffer = static_cast<char*>(std::aligned_alloc(kBufferAlignment, rounded));
  if (buffer == nullptr)
    throw Error(fmt::format("{}: cannot allocate {} bytes to read it", path.string(), rounded),
                ErrorCode::kIo, ErrorLocation::in_file(path.string()));
  file->data_ = buffer;
  std::size_t done = 0;
  while (done < file->size_) {
    const ssize_t got = ::read(fd.get(), buffer + done, file->size_ - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw Error(fmt::format("{}: cannot read byte {} of {}: {}", path.string(), done, file->size_,
                              got < 0 ? std::strerror(errno) : "file shrank"),
                  ErrorCode::kIo, ErrorLocation::in_file(path.string()));
    done += static_cast<std::size_t>(got);
  }
  return file;
}

std::shared_ptr<const MappedFile> MappedFile::copy_of(std::string_view bytes) {
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->size_ = bytes.size();
  if (file->size_ == 0) return file;
  const std::size_t rounded =
      (file->size_ + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  char* buffer = static_cast<char*>(std::aligned_alloc(kBufferAlignment, rounded));
  if (buffer == nullptr)
    throw Error(fmt::format("cannot allocate {} bytes for an artifact", rounded),
                ErrorCode::kLimit);
  std::memcpy(buffer, bytes.data(), bytes.size());
  file->data_ = buffer;
  return file;
}

MappedFile::~MappedFile() {
  if (mapped_)
    ::munmap(const_cast<char*>(data_), size_);
  else
    std::free(const_cast<char*>(data_));
}

}  // namespace glrmask
