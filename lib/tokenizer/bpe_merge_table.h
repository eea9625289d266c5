// The merge ranks of a BPE model as a hash table from (left id, right id) to (rank, merged id).
// Encoding looks a pair up for every adjacent pair of symbols, so this is the hottest lookup of
// the encoder: an open-addressing table with linear probing over one flat array (16 bytes a
// slot) instead of a node-based std::unordered_map. (Boost 1.74 predates unordered_flat_map.)
#pragma once

#include <cstdint>
#include <vector>

#include "lib/core/token_id.h"

namespace glrmask {

class MergeTable {
 public:
  struct Merge {
    std::uint32_t rank = 0;  // position in the merge list: lower merges first
    TokenId merged = 0;      // the id of left + right
  };

  // Makes room for `count` merges without rehashing.
  void reserve(std::size_t count);

  // Inserts or replaces the merge of (`left`, `right`). Ids must be below 2^32 - 1.
  void insert(TokenId left, TokenId right, Merge merge);

  const Merge* find(TokenId left, TokenId right) const {
    if (slots_.empty()) return nullptr;
    const std::uint64_t key = pack(left, right);
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.key == key) return &slot.merge;
      if (slot.key == kEmpty) return nullptr;
    }
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Slot {
    std::uint64_t key = kEmpty;
    Merge merge;
  };
  static std::uint64_t pack(TokenId left, TokenId right) {
    return std::uint64_t{left} << 32 | right;
  }
  std::size_t slot_of(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace glrmask
