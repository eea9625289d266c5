#include "lib/binary_io.h"

#include <fmt/format.h>

#include "lib/error.h"

namespace glrmask {

void BinaryReader::fail(const std::string& message) const {
  throw Error(fmt::format("{}: byte offset {}: {}", what_, offset_, message));
}

void BinaryReader::fail(const char* field, std::size_t wanted) const {
  fail(fmt::format("truncated: {} needs {} bytes, {} remain", field, wanted,
                   bytes_.size() - offset_));
}

std::uint64_t checksum64(std::string_view bytes) {
  std::uint64_t h = 0x243f6a8885a308d3ULL ^ bytes.size();
  auto mix = [](std::uint64_t x) {
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
  };
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = mix(h ^ word) + 0x9e3779b97f4a7c15ULL;
  }
  std::uint64_t tail = 0;
  if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
  return mix(h ^ tail ^ 0xff51afd7ed558ccdULL);
}

}  // namespace glrmask
