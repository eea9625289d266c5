// A set of (GSS node, Parser DWA state) pairs for one get_mask walk. Open addressing over a table
// that is kept between calls and cleared by bumping a generation number, so a walk allocates
// nothing once the table has grown to the largest walk seen.
#pragma once

#include <cstdint>
#include <vector>

#include "wfa/parser_dwa.h"

namespace glrmask::wfa {

class VisitedPairs {
 public:
  VisitedPairs() : slots_(64) {}

  void clear() {
    if (++generation_ == 0) {  // wrapped: stale stamps could look current
      for (Slot& slot : slots_) slot.generation = 0;
      generation_ = 1;
    }
    size_ = 0;
  }

  // Inserts the pair; false when it was already there.
  bool insert(const void* node, DwaStateId state) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    return insert_into(slots_, reinterpret_cast<std::uintptr_t>(node), state.value());
  }

 private:
  struct Slot {
    std::uintptr_t node = 0;
    std::uint32_t state = 0;
    std::uint32_t generation = 0;
  };

  static std::size_t hash(std::uintptr_t node, std::uint32_t state) {
    std::uint64_t h = static_cast<std::uint64_t>(node) * 0x9e3779b97f4a7c15ULL ^ state;
    h ^= h >> 29;
    return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL >> 7);
  }

  bool insert_into(std::vector<Slot>& slots, std::uintptr_t node, std::uint32_t state) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash(node, state) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots[i];
      if (slot.generation != generation_) {
        slot = {node, state, generation_};
        ++size_;
        return true;
      }
      if (slot.node == node && slot.state == state) return false;
    }
  }

  void grow() {
    std::vector<Slot> bigger(slots_.size() * 2);
    const std::size_t count = size_;
    size_ = 0;
    for (const Slot& slot : slots_)
      if (slot.generation == generation_) insert_into(bigger, slot.node, slot.state);
    size_ = count;
    slots_.swap(bigger);
  }

  std::vector<Slot> slots_;  // size is a power of two
  std::uint32_t generation_ = 1;
  std::size_t size_ = 0;
};

}  // namespace glrmask::wfa
