// A small open-addressing hash map from 64-bit keys to small trivially copyable values, for the
// hot loops of the compile steps: label-trie children keyed (node, label) and end forks keyed
// (state, inhibitor set) in the Terminal DWA builder, the memo tables of the Parser DWA builder.
// No erase, no iterators; clear() keeps the capacity so one map serves many walks.
// std::unordered_map allocates a node per entry, which dominated those loops.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace glrmask::lexer {

template <typename Value>
class BasicFlatU64Map {
 public:
  static constexpr uint64_t kVacant = ~uint64_t{0};  // the one key that cannot be stored

  explicit BasicFlatU64Map(size_t initial_capacity = 64) {
    resize_slots(std::bit_ceil(initial_capacity < 8 ? size_t{8} : initial_capacity));
  }

  // The value stored under `key`, or nullptr.
  const Value* find(uint64_t key) const {
    for (size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kVacant) return nullptr;
    }
  }

  // Asks the memory system for the slot where a lookup of `key` starts: issuing the loads of
  // several lookups before making them overlaps their cache misses.
  void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[slot_of(key)]); }

  // The value under `key`; inserts `value` first when the key is new (second == true).
  std::pair<Value, bool> find_or_insert(uint64_t key, Value value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return {slots_[i].value, false};
      if (slots_[i].key == kVacant) {
        slots_[i] = {key, value};
        ++size_;
        return {value, true};
      }
    }
  }

  // Stores `value` under `key`, replacing what was there.
  void assign(uint64_t key, Value value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return;
      }
      if (slots_[i].key == kVacant) {
        slots_[i] = {key, value};
        ++size_;
        return;
      }
    }
  }

  size_t size() const { return size_; }
  void clear() {
    if (size_ == 0) return;
    for (Slot& slot : slots_) slot.key = kVacant;
    size_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = kVacant;
    Value value{};
  };

  size_t mask() const { return slots_.size() - 1; }
  size_t slot_of(uint64_t key) const {
    // Fibonacci hashing: keys are packed small integers, whose low bits alone cluster badly.
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void resize_slots(size_t count) {
    slots_.assign(count, Slot{});
    shift_ = 64 - std::countr_zero(count);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    resize_slots(old.size() * 2);
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.key != kVacant) find_or_insert(slot.key, slot.value);
    }
  }

  std::vector<Slot> slots_;
  int shift_ = 61;
  size_t size_ = 0;
};

using FlatU64Map = BasicFlatU64Map<uint32_t>;

}  // namespace glrmask::lexer
