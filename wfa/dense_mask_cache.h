// The dense masks of recurring get_mask results. A result is the union of the weights the walk
// collected; a decoding run meets the same few unions again and again (inside an identifier,
// after a comma, ...), and OR-ing several 16 KiB dense sets costs more than the walk itself. The
// cache keys a result by its sorted weight ids and stores its dense words in slots allocated up
// front, so a hit is one copy (none through mask_view) and nothing is ever allocated on the
// decoding path. Replacement is CLOCK (second chance): a slot found since the hand last passed
// it is spared once. Round robin evicted the unions every step needs (after a comma, inside an
// identifier) as readily as the one-off unions of a rare construct. On SynCode's Java programs
// with Llama-3, 256 slots under CLOCK holding unions of up to 32 weights miss 13% of the steps;
// round robin holding up to 12 missed 18% (docs/performance.md).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/token_set_id.h"

namespace glrmask::wfa {

class DenseMaskCache {
 public:
  // Unions of more weights are not cached. Java's deepest steps unite up to 18 weights, and
  // those recur like the others; 32 costs 128 bytes per slot beside its 16-32 KiB mask.
  static constexpr std::size_t kMaxWeights = 32;

  // `slots` masks of `words` 32-bit words each.
  DenseMaskCache(std::size_t slots, std::size_t words);

  // The cached words of the union of `weights` (sorted, unique), or nullptr. A hit marks the
  // slot as recently used.
  const std::uint32_t* find(std::span<const TokenSetId> weights) const;
  // Stores a copy of `mask` as the union of `weights` (at most kMaxWeights of them).
  void insert(std::span<const TokenSetId> weights, std::span<const std::uint32_t> mask);
  // Makes the slot the clock hand stops at the entry of `weights` (it skips, and unmarks, the
  // slots found since it last passed) and returns its words for the caller to write
  // the union into before the next find(), so a result is written once instead of written and
  // copied; an empty span when the union is not cached (too many weights, no slots).
  std::span<std::uint32_t> claim(std::span<const TokenSetId> weights);

  std::size_t hits() const { return hits_; }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint32_t count = 0;          // 0 = vacant
    mutable bool referenced = false;  // found since the clock hand last passed
    std::array<TokenSetId, kMaxWeights> weights{};
  };
  static std::uint64_t hash_of(std::span<const TokenSetId> weights);
  std::size_t lookup(std::uint64_t hash) const;  // index into index_
  void erase_from_index(std::size_t slot);

  std::size_t words_;
  std::vector<Entry> entries_;        // per slot
  std::vector<std::uint32_t> masks_;  // slots * words_
  std::vector<std::int32_t> index_;   // open addressing over slots, -1 = empty
  std::size_t hand_ = 0;              // the next slot claim() considers
  mutable std::size_t hits_ = 0;
};

}  // namespace glrmask::wfa
