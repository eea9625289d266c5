// Little-endian binary encoding for the compiled artifacts: a writer that appends plain values
// and arrays to a byte buffer, and a reader that takes them back with a bounds check on every
// read, so a truncated or corrupt file ends in a glrmask::Error naming the byte offset and what
// was being read, never in a crash. Only trivially copyable values are written, in the host's
// byte order (the artifact header records it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace glrmask {

class BinaryWriter {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* bytes = reinterpret_cast<const char*>(&value);
    buffer_.append(bytes, sizeof(T));
  }
  template <typename T>
  void put_array(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(values.size());
    if (!values.empty())
      buffer_.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  }
  // put_array with the elements aligned to 8 bytes in the buffer, so that a reader of an equally
  // aligned copy (a mapped file) can view them in place (BinaryReader::get_view).
  template <typename T>
  void put_aligned_array(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
    put<std::uint64_t>(values.size());
    align(8);
    if (!values.empty())
      buffer_.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  }
  void put_string(std::string_view text) {
    put<std::uint64_t>(text.size());
    buffer_.append(text);
  }
  void put_bytes(std::string_view bytes) { buffer_.append(bytes); }
  // Zero bytes up to the next multiple of `alignment`, so that what follows can be viewed in
  // place from an equally aligned copy of the buffer (BinaryReader::align).
  void align(std::size_t alignment) {
    buffer_.append((alignment - buffer_.size() % alignment) % alignment, '\0');
  }
  std::size_t size() const { return buffer_.size(); }
  void reserve(std::size_t bytes) { buffer_.reserve(bytes); }

  const std::string& bytes() const { return buffer_; }
  std::string take() { return std::move(buffer_); }

 private:
  std::string buffer_;
};

class BinaryReader {
 public:
  // `what` names the input in errors (a file name).
  BinaryReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  template <typename T>
  T get(const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    require(sizeof(T), field);
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }
  template <typename T>
  std::vector<T> get_array(const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto count = get<std::uint64_t>(field);
    if (count > (bytes_.size() - offset_) / sizeof(T)) fail(field, count * sizeof(T));
    std::vector<T> values(count);
    if (count != 0) std::memcpy(values.data(), bytes_.data() + offset_, count * sizeof(T));
    offset_ += count * sizeof(T);
    return values;
  }
  // What put_aligned_array wrote, viewed in place: the span points into the bytes the reader was
  // given, which must start 8-byte aligned (a mapped file's do) and outlive the span.
  template <typename T>
  std::span<const T> get_view(const char* field) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
    const auto count = get<std::uint64_t>(field);
    align(8, field);
    if (count > (bytes_.size() - offset_) / sizeof(T)) fail(field, count * sizeof(T));
    const char* at = bytes_.data() + offset_;
    if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) != 0) fail("misaligned array");
    offset_ += count * sizeof(T);
    return {reinterpret_cast<const T*>(at), count};
  }
  std::string get_string(const char* field) {
    const auto size = get<std::uint64_t>(field);
    require(size, field);
    std::string text(bytes_.substr(offset_, size));
    offset_ += size;
    return text;
  }
  // The next `size` bytes, without copying.
  std::string_view get_bytes(std::size_t size, const char* field) {
    require(size, field);
    const std::string_view view = bytes_.substr(offset_, size);
    offset_ += size;
    return view;
  }

  // Skips the padding BinaryWriter::align wrote; refuses padding that is not zero.
  void align(std::size_t alignment, const char* field) {
    const std::string_view padding =
        get_bytes((alignment - offset_ % alignment) % alignment, field);
    if (padding.find_first_not_of('\0') != std::string_view::npos) fail("nonzero padding");
  }

  std::size_t offset() const { return offset_; }
  bool at_end() const { return offset_ == bytes_.size(); }
  const std::string& what() const { return what_; }

  // Throws glrmask::Error: "<what>: byte offset N: <message>".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  void require(std::size_t size, const char* field) {
    if (size > bytes_.size() - offset_) fail(field, size);
  }
  [[noreturn]] void fail(const char* field, std::size_t wanted) const;

  std::string_view bytes_;
  std::string what_;
  std::size_t offset_ = 0;
};

// A 64-bit checksum of `bytes`: detects truncation and corruption, not tampering. Eight
// independent multiply-rotate lanes, so it runs near memory speed (a 100 MiB artifact is checked
// on every load); each lane step is a bijection of the lane, so any change confined to one 8-byte
// word always changes the result.
std::uint64_t checksum64(std::string_view bytes);

}  // namespace glrmask
