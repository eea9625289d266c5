#include "lib/core/binary_io.h"

#include <fmt/format.h>

#include "lib/core/error.h"
#include "lib/core/hash_mix.h"

namespace glrmask {

void BinaryReader::fail(const std::string& message) const {
  throw Error(fmt::format("{}: byte offset {}: {}", what_, offset_, message), ErrorCode::kArtifact,
              [&] {
                auto where = ErrorLocation::in_file(what_);
                where.byte_offset = static_cast<std::int64_t>(offset_);
                return where;
              }());
}

void BinaryReader::fail(const char* field, std::size_t wanted) const {
  fail(fmt::format("truncated: {} needs {} bytes, {} remain", field, wanted,
                   bytes_.size() - offset_));
}

namespace {

constexpr std::uint64_t rotate_left(std::uint64_t x, int bits) {
  return (x << bits) | (x >> (64 - bits));
}

}  // namespace

std::uint64_t checksum64(std::string_view bytes) {
  constexpr std::uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;  // odd: multiplying is a bijection
  // Eight lanes keep the multiplier busy while each lane waits for its previous product; fewer
  // leave it idle, more spill registers.
  constexpr std::size_t kLanes = 8;
  std::uint64_t lanes[kLanes];
  for (std::size_t lane = 0; lane < kLanes; ++lane)
    lanes[lane] = 0x243f6a8885a308d3ULL * (2 * lane + 1);
  lanes[0] ^= bytes.size();
  const char* data = bytes.data();
  const std::size_t blocks = bytes.size() / (8 * kLanes);
  for (std::size_t block = 0; block < blocks; ++block, data += 8 * kLanes) {
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      std::uint64_t word;
      std::memcpy(&word, data + 8 * lane, 8);
      lanes[lane] = rotate_left(lanes[lane] + word, 31) * kMultiplier;
    }
  }
  // The last 0..63 bytes, zero-padded, into lane 0 (the length in the seed tells the padding
  // apart from zero bytes).
  for (std::size_t rest = bytes.size() % (8 * kLanes); rest > 0;) {
    std::uint64_t word = 0;
    const std::size_t take = rest < 8 ? rest : 8;
    std::memcpy(&word, data, take);
    lanes[0] = rotate_left(lanes[0] + word, 31) * kMultiplier;
    data += take;
    rest -= take;
  }
  std::uint64_t h = 0;
  for (std::size_t lane = 0; lane < kLanes; ++lane) h = fmix64(h ^ fmix64(lanes[lane] + lane));
  return h;
}

}  // namespace glrmask
