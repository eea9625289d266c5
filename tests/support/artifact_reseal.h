// Damage behind valid checksums: recomputes the checksums of a compiled artifact (format 10,
// mask/artifact/mask_artifact.cpp) after its bytes were changed, so that the damage gets past them
// and reaches the loader's structural checks and CRoaring's well-formedness check of a token set.
// Used by the artifact tests and the artifact fuzz target; safe on arbitrary bytes (every offset
// read from the file is checked against its size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "lib/core/binary_io.h"
#include "lib/token_set/frozen.h"

namespace glrmask::testing {

// The trailer: {offset where the token set images begin, where they end, the file's checksum}.
inline constexpr std::size_t kArtifactTrailerBytes = 3 * sizeof(std::uint64_t);

inline std::uint64_t artifact_trailer_field(const std::string& bytes, std::size_t field) {
  std::uint64_t value = 0;
  if (bytes.size() < kArtifactTrailerBytes) return 0;
  std::memcpy(&value, bytes.data() + bytes.size() - kArtifactTrailerBytes + 8 * field,
              sizeof value);
  return value;
}

// Where the token set image table lies: the offset of its first entry and the number of
// entries. It ends, padded to kFrozenImageAlignment, right where the images begin; it starts with
// the tag "TSET" and its count, and each entry is {offset from the images' begin, size, checksum}.
struct ImageTable {
  std::size_t first_entry = 0;
  std::uint64_t count = 0;
};

inline std::optional<ImageTable> artifact_image_table(const std::string& bytes) {
  const std::uint64_t area_begin = artifact_trailer_field(bytes, 0);
  if (area_begin > bytes.size()) return std::nullopt;
  for (std::size_t tag = bytes.rfind("TSET", area_begin); tag != std::string::npos && tag > 0;
       tag = bytes.rfind("TSET", tag - 1)) {
    if (tag + 12 > bytes.size()) continue;
    std::uint64_t count = 0;
    std::memcpy(&count, bytes.data() + tag + 4, sizeof count);
    if (count > bytes.size() / 24) continue;
    const std::size_t end = tag + 4 + 8 + 24 * count + 8;
    if ((end + kFrozenImageAlignment - 1) / kFrozenImageAlignment * kFrozenImageAlignment ==
        area_begin)
      return ImageTable{tag + 4 + 8, count};
  }
  return std::nullopt;
}

// Recomputes the checksum of every token set image whose offset and size lie inside the file.
// Returns how many were resealed.
inline std::size_t reseal_artifact_images(std::string& bytes) {
  const auto table = artifact_image_table(bytes);
  if (!table) return 0;
  const std::uint64_t area_begin = artifact_trailer_field(bytes, 0);
  std::size_t resealed = 0;
  for (std::uint64_t i = 0; i < table->count; ++i) {
    std::uint64_t entry[3];
    std::memcpy(entry, bytes.data() + table->first_entry + 24 * i, sizeof entry);
    const std::uint64_t at = area_begin + entry[0];
    if (entry[0] > bytes.size() || at > bytes.size() || entry[1] > bytes.size() - at) continue;
    entry[2] = checksum64(std::string_view(bytes).substr(at, entry[1]));
    std::memcpy(bytes.data() + table->first_entry + 24 * i, entry, sizeof entry);
    ++resealed;
  }
  return resealed;
}

// Recomputes the file's checksum (over every byte but the token set images and the checksum
// itself). Returns false when the trailer's image range is not inside the file.
inline bool reseal_artifact_file(std::string& bytes) {
  if (bytes.size() < kArtifactTrailerBytes) return false;
  const std::uint64_t begin = artifact_trailer_field(bytes, 0);
  const std::uint64_t end = artifact_trailer_field(bytes, 1);
  const std::string_view body(bytes.data(), bytes.size() - kArtifactTrailerBytes);
  if (begin > end || end > body.size()) return false;
  constexpr std::uint64_t kMix = 0x9e3779b97f4a7c15ULL;
  const std::uint64_t sum =
      (checksum64(body.substr(0, begin)) * kMix + checksum64(body.substr(end))) * kMix +
      checksum64(std::string_view(bytes.data() + body.size(), 16));
  std::memcpy(bytes.data() + bytes.size() - sizeof sum, &sum, sizeof sum);
  return true;
}

}  // namespace glrmask::testing
