// The memo behind TokenSetPool's ∪, ∩ and −: a map (left id, right id) → result id.
//
// Compiling a grammar asks for the same few million pairs over and over, so the table is a FlatMap
// of the project's hash-table family (lib/core/flat_map.h: open addressing, 12-byte slots, no node
// allocation) rather than a node-based std::unordered_map. The pool never stores the pair (0, 0)
// — every operation on the empty set is answered without the memo — so that pair marks a vacant
// slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/core/flat_map.h"

namespace glrmask {

class TokenSetMemo {
 public:
  // The stored result for (left, right), or nullptr.
  const std::uint32_t* find(std::uint32_t left, std::uint32_t right) const {
    return map_.find({left, right});
  }

  // Records the result for a pair that find() did not know.
  void insert(std::uint32_t left, std::uint32_t right, std::uint32_t result) {
    map_.insert_or_assign({left, right}, result);
  }

  std::size_t size() const { return map_.size(); }
  std::size_t memory_bytes() const { return map_.memory_bytes(); }
  // Empties the memo and gives its memory back.
  void clear() { map_.release(); }

 private:
  struct Pair {
    std::uint32_t left;
    std::uint32_t right;
    friend bool operator==(Pair, Pair) = default;
  };
  struct PairInfo {
    static constexpr Pair empty() { return {0, 0}; }
    // Fibonacci hashing of the packed pair: the product's high bits, which pick the slot, depend on
    // every bit of both ids.
    static std::uint64_t hash(Pair pair) {
      return (std::uint64_t{pair.left} << 32 | pair.right) * 0x9E3779B97F4A7C15ull;
    }
  };

  FlatMap<Pair, std::uint32_t, PairInfo> map_;
};

}  // namespace glrmask
