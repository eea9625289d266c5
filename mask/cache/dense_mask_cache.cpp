#include "mask/cache/dense_mask_cache.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "lib/core/check.h"

namespace glrmask::mask {

DenseMaskCache::DenseMaskCache(std::size_t slots, std::size_t words, std::size_t row_words)
    : words_(words),
      row_words_(row_words),
      entries_(slots),
      masks_(slots * words),
      rows_(slots * row_words),
      aliases_(row_words == 0 || slots == 0 ? 0 : std::bit_ceil(slots) * kAliasWays),
      by_weights_(slots * 2),
      by_row_(row_words == 0 ? 0 : slots * 2) {}

std::uint64_t DenseMaskCache::hash_of(std::span<const TokenSetId> weights) {
  std::uint64_t h = weights.size();
  for (const TokenSetId weight : weights) {
    h ^= weight.value();
    h *= 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  return h;
}

std::uint64_t DenseMaskCache::hash_of(std::span<const std::uint64_t> row) {
  std::uint64_t h = 0x243f6a8885a308d3ULL;
  for (const std::uint64_t word : row) {
    h ^= word;
    h *= 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  return h;
}

const std::uint32_t* DenseMaskCache::hit(std::size_t slot) const {
  ++hits_;
  entries_[slot].referenced = true;
  return masks_.data() + slot * words_;
}

namespace {

// Weights are keys as given: the same union must come with the same list.
bool sorted_unique(std::span<const TokenSetId> weights) {
  return std::adjacent_find(weights.begin(), weights.end(), std::greater_equal<>()) ==
         weights.end();
}

}  // namespace

const std::uint32_t* DenseMaskCache::find(std::span<const TokenSetId> weights) const {
  GLRMASK_DCHECK(sorted_unique(weights));
  if (weights.size() > kMaxWeights || entries_.empty() || weights.empty()) return nullptr;
  const std::uint64_t hash = hash_of(weights);
  const std::uint32_t slot = by_weights_.find(hash, [&](std::uint32_t s) {
    const Entry& entry = entries_[s];
    return entry.hash == hash && entry.count == weights.size() &&
           std::equal(weights.begin(), weights.end(), entry.weights.begin());
  });
  if (slot != SlotIndex::kNoId) return hit(slot);
  return find_alias(hash, weights);
}

const std::uint32_t* DenseMaskCache::find_alias(std::uint64_t hash,
                                                std::span<const TokenSetId> weights) const {
  if (aliases_.empty()) return nullptr;
  const std::size_t bucket = (hash >> 11) & (aliases_.size() / kAliasWays - 1);
  for (std::size_t way = 0; way < kAliasWays; ++way) {
    const Alias& alias = aliases_[bucket * kAliasWays + way];
    if (alias.hash == hash && alias.count == weights.size() && alias_is_live(alias) &&
        std::equal(weights.begin(), weights.end(), alias.weights.begin()))
      return hit(alias.slot);
  }
  return nullptr;
}

void DenseMaskCache::add_alias(std::uint64_t hash, std::span<const TokenSetId> weights,
                               std::size_t slot) {
  if (aliases_.empty() || weights.empty() || weights.size() > kMaxWeights) return;
  const std::size_t bucket = (hash >> 11) & (aliases_.size() / kAliasWays - 1);
  Alias* const ways = aliases_.data() + bucket * kAliasWays;
  // A void way if there is one, else the first; the others move down one, so the bucket stays
  // ordered newest first and the oldest alias is the one dropped.
  std::size_t victim = kAliasWays - 1;
  for (std::size_t way = 0; way < kAliasWays; ++way)
    if (!alias_is_live(ways[way])) {
      victim = way;
      break;
    }
  for (std::size_t way = victim; way > 0; --way) ways[way] = ways[way - 1];
  Alias& alias = ways[0];
  alias.hash = hash;
  alias.count = static_cast<std::uint32_t>(weights.size());
  alias.slot = static_cast<std::uint32_t>(slot);
  alias.generation = entries_[slot].generation;
  std::copy(weights.begin(), weights.end(), alias.weights.begin());
}

const std::uint32_t* DenseMaskCache::find_row(std::span<const std::uint64_t> row,
                                              std::span<const TokenSetId> weights) {
  if (row.size() != row_words_ || row_words_ == 0 || entries_.empty()) return nullptr;
  const std::uint64_t hash = hash_of(row);
  const std::uint32_t slot = by_row_.find(hash, [&](std::uint32_t s) {
    return entries_[s].row_hash == hash &&
           std::equal(row.begin(), row.end(),
                      rows_.begin() + static_cast<std::ptrdiff_t>(s * row_words_));
  });
  if (slot == SlotIndex::kNoId) return nullptr;
  add_alias(hash_of(weights), weights, slot);
  return hit(slot);
}

void DenseMaskCache::insert(std::span<const TokenSetId> weights,
                            std::span<const std::uint32_t> mask) {
  const std::span<std::uint32_t> slot = claim(weights);
  if (!slot.empty()) std::memcpy(slot.data(), mask.data(), words_ * sizeof(std::uint32_t));
}

std::span<std::uint32_t> DenseMaskCache::claim(std::span<const TokenSetId> weights,
                                               std::span<const std::uint64_t> row) {
  GLRMASK_DCHECK(sorted_unique(weights));
  const bool by_weights = !weights.empty() && weights.size() <= kMaxWeights;
  const bool by_row = row.size() == row_words_ && row_words_ != 0;
  if (entries_.empty() || (!by_weights && !by_row)) return {};
  // Terminates within one turn: the hand unmarks every slot it skips.
  while (entries_[hand_].referenced) {
    entries_[hand_].referenced = false;
    hand_ = (hand_ + 1) % entries_.size();
  }
  const std::size_t slot = hand_;
  hand_ = (hand_ + 1) % entries_.size();
  Entry& entry = entries_[slot];
  const auto index = static_cast<std::uint32_t>(slot);
  if (entry.count != 0) by_weights_.erase(entry.hash, index);
  if (entry.has_row) by_row_.erase(entry.row_hash, index);
  entry.count = 0;
  entry.has_row = false;
  ++entry.generation;  // voids the slot's aliases
  if (by_weights) {
    entry.hash = hash_of(weights);
    entry.count = static_cast<std::uint32_t>(weights.size());
    std::copy(weights.begin(), weights.end(), entry.weights.begin());
    by_weights_.insert_new(entry.hash, index);
  }
  if (by_row) {
    entry.row_hash = hash_of(row);
    entry.has_row = true;
    std::copy(row.begin(), row.end(),
              rows_.begin() + static_cast<std::ptrdiff_t>(slot * row_words_));
    by_row_.insert_new(entry.row_hash, index);
  }
  return {masks_.data() + slot * words_, words_};
}

}  // namespace glrmask::mask
