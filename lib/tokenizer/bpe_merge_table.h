// The merge ranks of a BPE model as a hash table from (left id, right id) to (rank, merged id).
// Encoding looks a pair up for every adjacent pair of symbols, so this is the hottest lookup of
// the encoder: a FlatMap of the project's hash-table family (lib/core/flat_map.h: linear probing
// over one flat array, 16 bytes a slot, at most half full) instead of a node-based
// std::unordered_map.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/core/flat_map.h"
#include "lib/core/token_id.h"

namespace glrmask {

class MergeTable {
 public:
  struct Merge {
    std::uint32_t rank = 0;  // position in the merge list: lower merges first
    TokenId merged = 0;      // the id of left + right
  };

  // Makes room for `count` merges without rehashing.
  void reserve(std::size_t count) { merges_.reserve(count); }

  // Inserts or replaces the merge of (`left`, `right`). Ids must be below 2^32 - 1.
  void insert(TokenId left, TokenId right, Merge merge);

  const Merge* find(TokenId left, TokenId right) const { return merges_.find(pack(left, right)); }

  std::size_t size() const { return merges_.size(); }

 private:
  static std::uint64_t pack(TokenId left, TokenId right) {
    return std::uint64_t{left} << 32 | right;
  }

  FlatMap<std::uint64_t, Merge, FlatKeyInfo<std::uint64_t>, 50> merges_;
};

}  // namespace glrmask
