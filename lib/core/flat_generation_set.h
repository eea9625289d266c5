// A flat hash set (flat_table.h) that is emptied in O(1): every slot carries the generation it was
// filled in, and clear() moves to the next generation, which makes every slot vacant at once. For
// sets filled and emptied once per call on a hot path (the (GSS node, Parser DWA state) pairs one
// get_mask walk has visited): once the table has grown to the largest walk seen, a walk allocates
// nothing and clearing does not touch the table.
//
// KeyInfo, as for FlatMap but without an empty marker (vacancy is the generation's business):
//   static std::uint64_t hash(const Key&);   // well mixed in its high bits
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "lib/core/flat_table.h"

namespace glrmask {

template <class Key, class KeyInfo, std::size_t MaxLoadPercent = 50>
class GenerationSet {
 public:
  explicit GenerationSet(std::size_t initial_capacity = 64) : table_(initial_capacity) {}

  // Whether `key` is in the set.
  bool contains(const Key& key) const {
    return table_.find(KeyInfo::hash(key), [&](const Slot& s) { return s.key == key; }) != nullptr;
  }

  // Inserts `key`; false when it was already there.
  bool insert(const Key& key) {
    const auto [slot, claimed] =
        table_.find_or_claim(KeyInfo::hash(key), [&](const Slot& s) { return s.key == key; });
    if (claimed) *slot = {key, table_.traits().generation};
    return claimed;
  }

  std::size_t size() const { return table_.size(); }
  static constexpr std::size_t slot_bytes() { return sizeof(Slot); }
  std::size_t capacity() const { return table_.capacity(); }
  // Empties the set in O(1) (a pass over the slots once every 2^32 - 1 clears).
  void clear() { table_.clear(); }
  std::uint32_t generation() const { return table_.traits().generation; }
  // Moves to `generation` (not 0) without touching the slots, so a test reaches the wrap-around
  // without 2^32 clears. Entries stamped `generation` earlier would count as present again.
  void jump_generation_for_testing(std::uint32_t generation) {
    table_.traits().generation = generation;
  }

 private:
  struct Slot {
    // A key with tail padding lends it to the generation (a 12-byte pointer-and-id key makes a
    // 16-byte slot, not 24) when the key type is not trivial, e.g. has default member
    // initializers: the C++ ABI reuses the tail padding of such types only.
    [[no_unique_address]] Key key;
    std::uint32_t generation;  // the slot holds an entry only in the current generation
  };
  struct Traits {
    static constexpr std::size_t kMaxLoadPercent = MaxLoadPercent;
    std::uint32_t generation = 1;  // slots start at 0: vacant

    bool is_vacant(const Slot& slot) const { return slot.generation != generation; }
    static Slot vacant() { return Slot{Key{}, 0}; }
    static std::uint64_t hash(const Slot& slot) { return KeyInfo::hash(slot.key); }
    void vacate_all(std::span<Slot> slots) {
      if (++generation != 0) return;
      // Wrapped around: stamps of 2^32 generations ago would look current.
      for (Slot& slot : slots) slot.generation = 0;
      generation = 1;
    }
  };

  FlatTable<Slot, Traits> table_;
};

}  // namespace glrmask
