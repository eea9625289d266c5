// The dense masks of recurring get_mask results. A result is the union of the weights the walk
// collected; a decoding run meets the same few unions again and again (inside an identifier,
// after a comma, ...), and OR-ing several 16 KiB dense sets costs more than the walk itself. The
// cache keys a result by its sorted weight ids and stores its dense words in slots allocated up
// front, so a hit is one copy (none through mask_view) and nothing is ever allocated on the
// decoding path. Replacement is
// round robin: the working set of a grammar is small, and a miss only costs the ORs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/token_set_id.h"

namespace glrmask::wfa {

class DenseMaskCache {
 public:
  static constexpr std::size_t kMaxWeights = 12;  // unions of more weights are not cached

  // `slots` masks of `words` 32-bit words each.
  DenseMaskCache(std::size_t slots, std::size_t words);

  // The cached words of the union of `weights` (sorted, unique), or nullptr.
  const std::uint32_t* find(std::span<const TokenSetId> weights) const;
  // Stores a copy of `mask` as the union of `weights` (at most kMaxWeights of them).
  void insert(std::span<const TokenSetId> weights, std::span<const std::uint32_t> mask);
  // Makes the oldest slot the entry of `weights` and returns its words for the caller to write
  // the union into before the next find(), so a result is written once instead of written and
  // copied; an empty span when the union is not cached (too many weights, no slots).
  std::span<std::uint32_t> claim(std::span<const TokenSetId> weights);

  std::size_t hits() const { return hits_; }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint32_t count = 0;  // 0 = vacant
    std::array<TokenSetId, kMaxWeights> weights{};
  };
  static std::uint64_t hash_of(std::span<const TokenSetId> weights);
  std::size_t lookup(std::uint64_t hash) const;  // index into index_
  void erase_from_index(std::size_t slot);

  std::size_t words_;
  std::vector<Entry> entries_;        // per slot
  std::vector<std::uint32_t> masks_;  // slots * words_
  std::vector<std::int32_t> index_;   // open addressing over slots, -1 = empty
  std::size_t next_slot_ = 0;
  mutable std::size_t hits_ = 0;
};

}  // namespace glrmask::wfa
