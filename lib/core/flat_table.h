// The probing core of the project's hash tables: open addressing with linear probing over one
// flat, power-of-two array of slots. A lookup reads one or two cache lines and nothing is
// allocated per entry, where a node-based std::unordered_map chases a pointer per entry and
// allocates on every insert (that dominated the compile steps' loops). Debian 12's Boost (1.74)
// predates boost::unordered_flat_map.
//
// The family built on it, one per kind of key:
//   flat_map.h        fixed-size keys with an empty marker (LLVM's DenseMap/DenseMapInfo idea):
//                     FlatMap and FlatSet
//   flat_generation_set.h  a set emptied in O(1) by a generation number (per-walk visited pairs)
//   flat_id_index.h   ids whose keys live in the caller's storage (interners, caches)
//   flat_key_store.h  variable-length keys stored back to back (strings, id lists)
// Users pick one of those; FlatTable itself is their shared part.
//
// Invariants: the capacity is a power of two, at least 2; size() <= capacity() * kMaxLoadPercent
// / 100 after every insert (growing doubles the capacity); the home slot of a hash is its top
// log2(capacity) bits, so hashes must be well mixed in their high bits (a multiplication by an
// odd constant is enough, its low bits are not); and no vacant slot lies between an entry's home
// and the entry (erase() shifts later entries back instead of leaving tombstones).
//
// Traits tell what a slot holds:
//   bool is_vacant(const Slot&) const;
//   Slot vacant() const;                       // what a new or erased slot holds
//   std::uint64_t hash(const Slot&) const;     // the hash the entry was placed under
//   static constexpr std::size_t kMaxLoadPercent;
//   optional: void vacate_all(std::span<Slot>) // clear() without touching every slot
// Traits may hold state (flat_generation_set.h keeps its generation there).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace glrmask {

template <class Slot, class Traits>
class FlatTable {
 public:
  static constexpr std::size_t kMaxLoadPercent = Traits::kMaxLoadPercent;
  static_assert(kMaxLoadPercent > 0 && kMaxLoadPercent < 100);

  // Room for `initial_capacity` slots (rounded up to a power of two, at least 2).
  explicit FlatTable(std::size_t initial_capacity = 16, Traits traits = {})
      : traits_(std::move(traits)) {
    resize_slots(capacity_for_slots(initial_capacity));
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return mask_ + 1; }
  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }
  Traits& traits() { return traits_; }
  const Traits& traits() const { return traits_; }

  // The entry `matches` accepts among those placed under `hash`, or nullptr.
  template <class Matches>
  const Slot* find(std::uint64_t hash, Matches&& matches) const {
    for (std::size_t i = home(hash);; i = next(i)) {
      const Slot& slot = slots_[i];
      if (traits_.is_vacant(slot)) return nullptr;
      if (matches(slot)) return &slot;
    }
  }
  template <class Matches>
  Slot* find(std::uint64_t hash, Matches&& matches) {
    return const_cast<Slot*>(std::as_const(*this).find(hash, matches));
  }

  // The entry `matches` accepts (second == false), or else the vacant slot where an entry placed
  // under `hash` belongs, now counted as taken (second == true): the caller must fill it with an
  // entry whose Traits::hash() is `hash`. Grows first when one more entry would exceed the load.
  template <class Matches>
  std::pair<Slot*, bool> find_or_claim(std::uint64_t hash, Matches&& matches) {
    if (size_ >= max_size_) [[unlikely]]
      grow(capacity() * 2);
    for (std::size_t i = home(hash);; i = next(i)) {
      Slot& slot = slots_[i];
      if (traits_.is_vacant(slot)) {
        ++size_;
        return {&slot, true};
      }
      if (matches(slot)) return {&slot, false};
    }
  }

  // Places an entry the table does not hold yet (the caller knows).
  void insert_new(const Slot& entry) {
    if (size_ >= max_size_) [[unlikely]]
      grow(capacity() * 2);
    place(entry);
    ++size_;
  }

  // Removes the entry in `slot` (a pointer find() returned): later entries of its probe run move
  // back into the hole when their home allows, so lookups never need tombstones.
  void erase(Slot* slot) {
    std::size_t hole = static_cast<std::size_t>(slot - slots_.data());
    for (std::size_t i = next(hole); !traits_.is_vacant(slots_[i]); i = next(i)) {
      const std::size_t home_of_i = home(traits_.hash(slots_[i]));
      // The entry at `i` stays unless its home lies cyclically outside (hole, i].
      if (((home_of_i - hole - 1) & mask_) < ((i - hole) & mask_)) continue;
      slots_[hole] = slots_[i];
      hole = i;
    }
    slots_[hole] = traits_.vacant();
    --size_;
  }

  // Makes room for `count` entries without growing again.
  void reserve(std::size_t count) {
    const std::size_t needed = capacity_for_entries(count);
    if (needed > capacity()) grow(needed);
  }

  // Empties the table, keeping its capacity, so one table serves many walks.
  void clear() {
    if (size_ == 0) return;
    if constexpr (requires(Traits & t, std::span<Slot> s) { t.vacate_all(s); }) {
      traits_.vacate_all(std::span<Slot>(slots_));
    } else {
      std::fill(slots_.begin(), slots_.end(), traits_.vacant());
    }
    size_ = 0;
  }

  // Empties the table and gives its memory back (a memo dropped after a build).
  void release() {
    std::vector<Slot>().swap(slots_);
    resize_slots(2);
    size_ = 0;
  }

  // Asks the memory system for the slot where a lookup of `hash` starts: issuing the loads of
  // several lookups before making them overlaps their cache misses.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&slots_[home(hash)]); }

  // Calls visit(slot) for every entry, in slot order (which depends on the hashes: no meaning).
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const Slot& slot : slots_)
      if (!traits_.is_vacant(slot)) visit(slot);
  }

 private:
  std::size_t next(std::size_t i) const { return (i + 1) & mask_; }
  std::size_t home(std::uint64_t hash) const { return static_cast<std::size_t>(hash >> shift_); }

  static std::size_t capacity_for_slots(std::size_t slots) {
    return std::bit_ceil(std::max<std::size_t>(slots, 2));
  }
  static std::size_t capacity_for_entries(std::size_t count) {
    return capacity_for_slots((count * 100 + kMaxLoadPercent - 1) / kMaxLoadPercent);
  }

  void resize_slots(std::size_t capacity) {
    slots_.assign(capacity, traits_.vacant());
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    max_size_ = capacity * kMaxLoadPercent / 100;
  }

  void place(const Slot& entry) {
    std::size_t i = home(traits_.hash(entry));
    while (!traits_.is_vacant(slots_[i])) i = next(i);
    slots_[i] = entry;
  }

  // Out of line and cold: inlined, it made find_or_claim too big to inline into its callers.
  [[gnu::noinline, gnu::cold]] void grow(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_ = {};
    resize_slots(capacity);
    for (const Slot& slot : old)
      if (!traits_.is_vacant(slot)) place(slot);
  }

  std::vector<Slot> slots_;
  // Derived from the capacity and kept, not recomputed per probe: slots_.size() divides a pointer
  // difference by sizeof(Slot), which is a multiplication and shifts for a 24-byte slot.
  std::size_t mask_ = 1;      // capacity - 1
  int shift_ = 63;            // 64 - log2(capacity): hash >> shift_ is the home slot
  std::size_t max_size_ = 1;  // the most entries the load allows: capacity * kMaxLoadPercent / 100
  std::size_t size_ = 0;
  [[no_unique_address]] Traits traits_;
};

}  // namespace glrmask
