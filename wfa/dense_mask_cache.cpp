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
      return masks_.data() + static_cast<std::size_t>(slot) * words_;
    }
  }
}

void DenseMaskCache::insert(std::span<const TokenSetId> weights,
                            std::span<const std::uint32_t> mask) {
  if (weights.size() > kMaxWeights || entries_.empty()) return;
  const std::size_t slot = next_slot_;
  next_slot_ = (next_slot_ + 1) % entries_.size();
  Entry& entry = entries_[slot];
  entry.hash = hash_of(weights);
  entry.count = static_cast<std::uint32_t>(weights.size());
  std::copy(weights.begin(), weights.end(), entry.weights.begin());
  std::memcpy(masks_.data() + slot * words_, mask.data(), words_ * sizeof(std::uint32_t));
  // Rebuild the index: slots are few, and a replaced entry must disappear from it.
  std::fill(index_.begin(), index_.end(), -1);
  for (std::size_t s = 0; s < entries_.size(); ++s) {
    if (entries_[s].count == 0) continue;
    std::size_t i = lookup(entries_[s].hash);
    while (index_[i] >= 0) i = (i + 1) & (index_.size() - 1);
    index_[i] = static_cast<std::int32_t>(s);
  }
}

}  // namespace glrmask::wfa
