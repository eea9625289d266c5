// The dense masks of recurring get_mask results. A result is the union of the weights the walk
// collected; a decoding run meets the same few unions again and again (inside an identifier,
// after a comma, ...), and OR-ing several 16 KiB dense sets costs more than the walk itself. The
// cache stores dense masks in slots allocated up front, so a hit is one copy (none through
// mask_view) and nothing is ever allocated on the decoding path.
//
// A slot is found two ways. First by the sorted weight ids the walk collected. Failing that, by
// the union's class row (weight_class_rows.h): different sets of weights often unite to the same
// tokens, and the row, a few dozen words, tells so exactly without building the mask. On SynCode's
// Java programs with Llama-3 the 927 distinct weight sets of a run give 298 distinct masks.
//
// Replacement is CLOCK (second chance): a slot found since the hand last passed it is spared once.
// Round robin evicted the unions every step needs as readily as the one-off unions of a rare
// construct (experiments/results/tail_latency/LOG.md has the hit rates of both).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/core/flat_id_index.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask::mask {

class DenseMaskCache {
 public:
  // Unions of more weights are found by their class row only. Java's deepest steps unite up to
  // 18 weights, and those recur like the others; 32 costs 128 bytes per slot.
  static constexpr std::size_t kMaxWeights = 32;

  // `slots` masks of `words` 32-bit words each, and per slot a class row of `row_words` 64-bit
  // words (0: slots are found by their weights only).
  DenseMaskCache(std::size_t slots, std::size_t words, std::size_t row_words = 0);

  std::size_t row_words() const { return row_words_; }

  // The cached words of the union of `weights` (sorted, unique), or nullptr. A hit marks the
  // slot as recently used.
  const std::uint32_t* find(std::span<const TokenSetId> weights) const;
  // The cached words of the union whose class row is `row` (row_words() words), or nullptr. A hit
  // also files `weights` under the slot it found, so that find(weights) finds it next time.
  const std::uint32_t* find_row(std::span<const std::uint64_t> row,
                                std::span<const TokenSetId> weights);
  // Stores a copy of `mask` as the union of `weights` (at most kMaxWeights of them).
  void insert(std::span<const TokenSetId> weights, std::span<const std::uint32_t> mask);
  // Makes the slot the clock hand stops at (it skips, and unmarks, the slots found since it last
  // passed) the entry of `weights` and, when given, of the class row `row` (which find_row must
  // have missed), and returns its words for the caller to write the union into before the next
  // find(), so a result is written once instead of written and copied. An empty span when the
  // union is not cached: no slots, or more than kMaxWeights weights and no row.
  std::span<std::uint32_t> claim(std::span<const TokenSetId> weights,
                                 std::span<const std::uint64_t> row = {});

  std::size_t hits() const { return hits_; }

 private:
  struct Entry {
    std::uint32_t generation = 0;     // bumped whenever the slot is claimed
    std::uint64_t hash = 0;           // of the weights
    std::uint64_t row_hash = 0;       // of the class row
    std::uint32_t count = 0;          // weights; 0 = not found by weights
    bool has_row = false;             // found by its class row
    mutable bool referenced = false;  // found since the clock hand last passed
    std::array<TokenSetId, kMaxWeights> weights{};
  };
  // Slots by the hash of their weights or of their class row: FlatIdIndexes of the project's
  // hash-table family (lib/core/flat_id_index.h), which erase by shifting later entries back, so
  // no tombstones pile up as slots are claimed again. Sized at construction for every slot at
  // most half full, so they never grow (nor allocate) on the decoding path.
  using SlotIndex = FlatIdIndex<50>;

  // Other weight sets found to unite to a slot's mask (find_row), kept best effort in buckets of
  // kAliasWays; an alias is void once its slot is claimed again (the generation moved on).
  struct Alias {
    std::uint64_t hash = 0;
    std::uint32_t count = 0;  // 0 = vacant
    std::uint32_t slot = 0;
    std::uint32_t generation = 0;
    std::array<TokenSetId, kMaxWeights> weights{};
  };
  static constexpr std::size_t kAliasWays = 4;
  bool alias_is_live(const Alias& alias) const {
    return alias.count != 0 && entries_[alias.slot].generation == alias.generation;
  }
  const std::uint32_t* find_alias(std::uint64_t hash, std::span<const TokenSetId> weights) const;
  void add_alias(std::uint64_t hash, std::span<const TokenSetId> weights, std::size_t slot);

  static std::uint64_t hash_of(std::span<const TokenSetId> weights);
  static std::uint64_t hash_of(std::span<const std::uint64_t> row);
  const std::uint32_t* hit(std::size_t slot) const;

  std::size_t words_;
  std::size_t row_words_;
  std::vector<Entry> entries_;        // per slot
  std::vector<std::uint32_t> masks_;  // slots * words_
  std::vector<std::uint64_t> rows_;   // slots * row_words_
  std::vector<Alias> aliases_;        // buckets of kAliasWays; empty without rows
  SlotIndex by_weights_;
  SlotIndex by_row_;
  std::size_t hand_ = 0;  // the next slot claim() considers
  mutable std::size_t hits_ = 0;
};

}  // namespace glrmask::mask
