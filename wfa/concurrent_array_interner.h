// Interns arrays of small trivially copyable values (the Parser DWA builder's item sets and
// lookaheads) from several threads at once: equal arrays get one id, and an id reads its array
// without a lock, at an address that never moves.
//
// Why sharded: every memoized computation of the builder ends by interning the items it left
// suspended, so one lock around one table would make the workers take turns. The top bits of the
// caller's hash pick one of 64 shards, each an open-addressing table of (hash, id) under its own
// mutex; the arrays themselves live once, in a tbb::concurrent_vector that grows without moving
// its elements. An id handed from one thread to another through any synchronizing structure (a
// mutex-protected queue, a table lookup) is safe to read there.
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

namespace glrmask::wfa {

template <class T>
class ConcurrentArrayInterner {
 public:
  using Id = std::uint32_t;

  ConcurrentArrayInterner() { contents_.emplace_back(); }  // id 0: the empty array

  // The id of the array equal to `values`, which must already be in the caller's canonical form
  // (equal contents compare equal element by element); `hash` must depend on the contents only.
  Id intern(std::span<const T> values, std::uint64_t hash) {
    if (values.empty()) return 0;
    Shard& shard = shards_[hash >> (64 - kShardBits)];
    const std::lock_guard lock(shard.mutex);
    const std::size_t mask = shard.slots.size() - 1;
    std::size_t i = hash & mask;
    for (; shard.slots[i].id != kVacant; i = (i + 1) & mask) {
      const Slot& slot = shard.slots[i];
      if (slot.hash == hash && std::ranges::equal(contents_[slot.id], values)) return slot.id;
    }
    const auto index = static_cast<std::size_t>(
        contents_.push_back(std::vector<T>(values.begin(), values.end())) - contents_.begin());
    if (index >= kVacant) throw Error("wfa: more than 2^32 interned arrays in one build");
    const auto id = static_cast<Id>(index);
    shard.slots[i] = {hash, id};
    if (++shard.size * 4 > shard.slots.size() * 3) shard.grow();
    return id;
  }

  const std::vector<T>& operator[](Id id) const { return contents_[id]; }
  // Arrays interned so far, the empty one included.
  std::size_t size() const { return contents_.size(); }

 private:
  static constexpr Id kVacant = 0xffffffffu;
  static constexpr int kShardBits = 6;

  struct Slot {
    std::uint64_t hash = 0;
    Id id = kVacant;
  };
  struct alignas(64) Shard {
    tbb::spin_mutex mutex;
    std::vector<Slot> slots = std::vector<Slot>(16);
    std::size_t size = 0;

    void grow() {
      std::vector<Slot> old(slots.size() * 2);
      old.swap(slots);
      const std::size_t mask = slots.size() - 1;
      for (const Slot& slot : old) {
        if (slot.id == kVacant) continue;
        std::size_t i = slot.hash & mask;
        while (slots[i].id != kVacant) i = (i + 1) & mask;
        slots[i] = slot;
      }
    }
  };

  std::array<Shard, std::size_t{1} << kShardBits> shards_;
  tbb::concurrent_vector<std::vector<T>> contents_;
};

}  // namespace glrmask::wfa
