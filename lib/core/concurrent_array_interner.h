// Interns arrays of small trivially copyable values (the Parser DWA builder's item sets and
// lookaheads) from several threads at once: equal arrays get one id, and an id reads its array
// without a lock, at an address that never moves.
//
// Why sharded: every memoized computation of the builder ends by interning the items it left
// suspended, so one lock around one table would make the workers take turns. The low bits of the
// caller's hash pick one of 64 shards, each a FlatIdIndex of the project's hash-table family
// (lib/core/flat_id_index.h) under its own mutex; the arrays themselves live once, in a
// tbb::concurrent_vector that grows without moving its elements. An id handed from one thread to
// another through any synchronizing structure (a mutex-protected queue, a table lookup) is safe to
// read there.
#pragma once

#include <tbb/concurrent_vector.h>
#include <tbb/spin_mutex.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "lib/core/error.h"
#include "lib/core/flat_id_index.h"

namespace glrmask {

template <class T>
class ConcurrentArrayInterner {
 public:
  using Id = std::uint32_t;

  ConcurrentArrayInterner() { contents_.emplace_back(); }  // id 0: the empty array

  // The id of the array equal to `values`, which must already be in the caller's canonical form
  // (equal contents compare equal element by element); `hash` must depend on the contents only.
  Id intern(std::span<const T> values, std::uint64_t hash) {
    if (values.empty()) return 0;
    // The low bits pick the shard: the index places entries by the high bits.
    Shard& shard = shards_[hash & (kShards - 1)];
    const std::lock_guard lock(shard.mutex);
    const auto is_values = [&](Id id) { return std::ranges::equal(contents_[id], values); };
    if (const Id known = shard.index.find(hash, is_values); known != Index::kNoId) return known;
    const auto index = static_cast<std::size_t>(
        contents_.push_back(std::vector<T>(values.begin(), values.end())) - contents_.begin());
    if (index >= Index::kNoId)
      throw Error("wfa: more than 2^32 - 1 interned arrays in one build", ErrorCode::kLimit);
    const auto id = static_cast<Id>(index);
    shard.index.insert_new(hash, id);
    return id;
  }

  const std::vector<T>& operator[](Id id) const { return contents_[id]; }
  // Arrays interned so far, the empty one included.
  std::size_t size() const { return contents_.size(); }

 private:
  using Index = FlatIdIndex<>;
  static constexpr std::size_t kShards = 64;

  struct alignas(64) Shard {
    tbb::spin_mutex mutex;
    Index index;
  };

  std::array<Shard, kShards> shards_;
  tbb::concurrent_vector<std::vector<T>> contents_;
};

}  // namespace glrmask
