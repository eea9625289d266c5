#include "wfa/dense_mask_cache.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "lib/core/check.h"

namespace glrmask::wfa {

DenseMaskCache::SlotIndex::SlotIndex(std::size_t slots)
    : cells_(slots == 0 ? 0 : std::bit_ceil(slots * 2), -1),
      mask_(cells_.empty() ? 0 : cells_.size() - 1) {}

void DenseMaskCache::SlotIndex::add(std::uint64_t hash, std::int32_t slot) {
  std::size_t i = home(hash);
  while (cells_[i] >= 0) i = next(i);
  cells_[i] = slot;
}

template <class HashOfSlot>
void DenseMaskCache::SlotIndex::remove(std::uint64_t hash, std::int32_t slot,
                                       HashOfSlot hash_of_slot) {
  std::size_t hole = home(hash);
  while (cells_[hole] != slot) hole = next(hole);
  for (std::size_t i = next(hole); cells_[i] >= 0; i = next(i)) {
    const std::size_t home_of_i = home(hash_of_slot(cells_[i]));
    // `i` may move to `hole` unless its home lies cyclically in (hole, i].
    const bool home_after_hole = ((home_of_i - hole - 1) & mask_) < ((i - hole) & mask_);
    if (home_after_hole) continue;
    cells_[hole] = cells_[i];
    hole = i;
  }
  cells_[hole] = -1;
}

DenseMaskCache::DenseMaskCache(std::size_t slots, std::size_t words, std::size_t row_words)
    : words_(words),
      row_words_(row_words),
      entries_(slots),
      masks_(slots * words),
      rows_(slots * row_words),
      aliases_(row_words == 0 || slots == 0 ? 0 : std::bit_ceil(slots) * kAliasWays),
      by_weights_(slots),
      by_row_(row_words == 0 ? 0 : slots) {}

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
  if (weights.size() > kMaxWeights || by_weights_.empty() || weights.empty()) return nullptr;
  const std::uint64_t hash = hash_of(weights);
  for (std::size_t i = by_weights_.home(hash);; i = by_weights_.next(i)) {
    const std::int32_t slot = by_weights_.at(i);
    if (slot < 0) break;
    const Entry& entry = entries_[static_cast<std::size_t>(slot)];
    if (entry.hash == hash && entry.count == weights.size() &&
        std::equal(weights.begin(), weights.end(), entry.weights.begin()))
      return hit(static_cast<std::size_t>(slot));
  }
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
  if (row.size() != row_words_ || by_row_.empty()) return nullptr;
  const std::uint64_t hash = hash_of(row);
  for (std::size_t i = by_row_.home(hash);; i = by_row_.next(i)) {
    const std::int32_t slot = by_row_.at(i);
    if (slot < 0) return nullptr;
    const std::size_t s = static_cast<std::size_t>(slot);
    if (entries_[s].row_hash == hash &&
        std::equal(row.begin(), row.end(),
                   rows_.begin() + static_cast<std::ptrdiff_t>(s * row_words_))) {
      add_alias(hash_of(weights), weights, s);
      return hit(s);
    }
  }
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
  const bool by_row = row.size() == row_words_ && !by_row_.empty();
  if (entries_.empty() || (!by_weights && !by_row)) return {};
  // Terminates within one turn: the hand unmarks every slot it skips.
  while (entries_[hand_].referenced) {
    entries_[hand_].referenced = false;
    hand_ = (hand_ + 1) % entries_.size();
  }
  const std::size_t slot = hand_;
  hand_ = (hand_ + 1) % entries_.size();
  Entry& entry = entries_[slot];
  const auto index = static_cast<std::int32_t>(slot);
  if (entry.count != 0)
    by_weights_.remove(entry.hash, index,
                       [&](std::int32_t s) { return entries_[static_cast<std::size_t>(s)].hash; });
  if (entry.has_row)
    by_row_.remove(entry.row_hash, index,
                   [&](std::int32_t s) { return entries_[static_cast<std::size_t>(s)].row_hash; });
  entry.count = 0;
  entry.has_row = false;
  ++entry.generation;  // voids the slot's aliases
  if (by_weights) {
    entry.hash = hash_of(weights);
    entry.count = static_cast<std::uint32_t>(weights.size());
    std::copy(weights.begin(), weights.end(), entry.weights.begin());
    by_weights_.add(entry.hash, index);
  }
  if (by_row) {
    entry.row_hash = hash_of(row);
    entry.has_row = true;
    std::copy(row.begin(), row.end(),
              rows_.begin() + static_cast<std::ptrdiff_t>(slot * row_words_));
    by_row_.add(entry.row_hash, index);
  }
  return {masks_.data() + slot * words_, words_};
}

}  // namespace glrmask::wfa
