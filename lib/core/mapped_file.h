// A whole file as read-only bytes in memory, mapped rather than read where the system allows, so
// that opening a large compiled artifact costs page-table entries instead of a copy. The bytes
// start 64-byte aligned (a page when mapped), which lets formats place aligned structures at
// aligned file offsets and view them in place.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>

namespace glrmask {

class MappedFile {
 public:
  // Maps `path` (or, where mapping fails, reads it into an aligned buffer). Throws glrmask::Error
  // naming the path when it cannot be opened or read. An empty file gives empty bytes.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  // A copy of `bytes` in an aligned buffer: an artifact held in memory (Constraint::deserialize).
  static std::shared_ptr<const MappedFile> copy_of(std::string_view bytes);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {data_, size_}; }
  bool is_mapped() const { return mapped_; }

 private:
  MappedFile() = default;

  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;  // munmap on destruction, else free
};

}  // namespace glrmask
