// The compile steps' map from packed 64-bit keys (pairs of 32-bit ids) to small trivially
// copyable values: label-trie children keyed (node, label) and end forks keyed (state, inhibitor
// set) in the Terminal DWA builder, the memo tables of the Parser DWA builder. A FlatMap of the
// project's hash-table family (lib/core/flat_map.h), so it is flat for the same reason: a
// node-based std::unordered_map allocated a node per entry, which dominated those loops. No erase,
// no iterators; clear() keeps the capacity so one map serves many walks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/core/flat_map.h"

namespace glrmask {

template <typename Value>
class BasicFlatU64Map : public FlatMap<std::uint64_t, Value> {
 public:
  static constexpr std::uint64_t kVacant = FlatKeyInfo<std::uint64_t>::empty();

  explicit BasicFlatU64Map(std::size_t initial_capacity = 64)
      : FlatMap<std::uint64_t, Value>(initial_capacity < 8 ? 8 : initial_capacity) {}

  // Stores `value` under `key`, replacing what was there.
  void assign(std::uint64_t key, Value value) { this->insert_or_assign(key, value); }
};

using FlatU64Map = BasicFlatU64Map<std::uint32_t>;

}  // namespace glrmask
