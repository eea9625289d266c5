#include "wfa/dense_mask_cache.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace glrmask::wfa {

DenseMaskCache::DenseMaskCache(std::size_t slots, std::size_t words)
    : words_(words), entries_(slots), masks_(slots * words), index_(std::bit_ceil(slots * 2), -1) {}

std::uint64_t DenseMaskCache::hash_of(std::span<const TokenSetId> weights) {
  std::uint64_t h = weights.size();
  for (const TokenSetId weight : weights) {
    h ^= weight.value();
    h *= 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  return h;
}

std::size_t DenseMaskCache::lookup(std::uint64_t hash) const {
  return static_cast<std::size_t>(hash >> 17) & (index_.size() - 1);
}

const std::uint32_t* DenseMaskCache::find(std::span<const TokenSetId> weights) const {
  if (weights.size() > kMaxWeights) return nullptr;
  const std::uint64_t hash = hash_of(weights);
  for (std::size_t i = lookup(hash);; i = (i + 1) & (index_.size() - 1)) {
    const std::int32_t slot = index_[i];
    if (slot < 0) return nullptr;
    const Entry& entry = entries_[static_cast<std::size_t>(slot)];
    if (entry.hash == hash && entry.count == weights.size() &&
        std::equal(weights.begin(), weights.end(), entry.weights.begin())) {
      ++hits_;
      entry.referenced = true;
      return masks_.data() + static_cast<std::size_t>(slot) * words_;
    }
  }
}

// Linear probing with backward-shift deletion: later members of the probe run move up into the
// hole when their home position allows it, so no tombstones accumulate and find() stays short.
void DenseMaskCache::erase_from_index(std::size_t slot) {
  const std::size_t mask = index_.size() - 1;
  std::size_t hole = lookup(entries_[slot].hash);
  while (index_[hole] != static_cast<std::int32_t>(slot)) hole = (hole + 1) & mask;
  for (std::size_t next = (hole + 1) & mask; index_[next] >= 0; next = (next + 1) & mask) {
    const std::size_t home = lookup(entries_[static_cast<std::size_t>(index_[next])].hash);
    // `next` may move to `hole` unless its home lies cyclically in (hole, next].
    const bool home_after_hole = ((home - hole - 1) & mask) < ((next - hole) & mask);
    if (home_after_hole) continue;
    index_[hole] = index_[next];
    hole = next;
  }
  index_[hole] = -1;
}

void DenseMaskCache::insert(std::span<const TokenSetId> weights,
                            std::span<const std::uint32_t> mask) {
  const std::span<std::uint32_t> slot = claim(weights);
  if (!slot.empty()) std::memcpy(slot.data(), mask.data(), words_ * sizeof(std::uint32_t));
}

std::span<std::uint32_t> DenseMaskCache::claim(std::span<const TokenSetId> weights) {
  if (weights.size() > kMaxWeights || entries_.empty()) return {};
  // Terminates within one turn: the hand unmarks every slot it skips.
  while (entries_[hand_].referenced) {
    entries_[hand_].referenced = false;
    hand_ = (hand_ + 1) % entries_.size();
  }
  const std::size_t slot = hand_;
  hand_ = (hand_ + 1) % entries_.size();
  Entry& entry = entries_[slot];
  if (entry.count != 0) erase_from_index(slot);
  entry.hash = hash_of(weights);
  entry.count = static_cast<std::uint32_t>(weights.size());
  std::copy(weights.begin(), weights.end(), entry.weights.begin());
  std::size_t i = lookup(entry.hash);
  while (index_[i] >= 0) i = (i + 1) & (index_.size() - 1);
  index_[i] = static_cast<std::int32_t>(slot);
  return {masks_.data() + slot * words_, words_};
}

}  // namespace glrmask::wfa
