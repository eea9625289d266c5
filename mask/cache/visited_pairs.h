// A set of (GSS node, Parser DWA state) pairs for one get_mask walk. A GenerationSet of the
// project's hash-table family (lib/core/flat_generation_set.h): the table is kept between calls
// and cleared by bumping a generation number, so a walk allocates nothing once the table has
// grown to the largest walk seen.
#pragma once

#include <cstdint>

#include "lib/core/flat_generation_set.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

class VisitedPairs {
 public:
  void clear() { pairs_.clear(); }

  // Inserts the pair; false when it was already there.
  bool insert(const void* node, DwaStateId state) {
    return pairs_.insert({reinterpret_cast<std::uintptr_t>(node), state.value()});
  }

 private:
  // The default member initializers make Pair non-trivial, so the set's generation stamp fits in
  // its tail padding: 16-byte slots, four to a cache line (see flat_generation_set.h).
  struct Pair {
    std::uintptr_t node = 0;
    std::uint32_t state = 0;
    friend bool operator==(const Pair&, const Pair&) = default;
  };
  struct PairInfo {
    static std::uint64_t hash(const Pair& pair) {
      std::uint64_t h = static_cast<std::uint64_t>(pair.node) * 0x9e3779b97f4a7c15ULL ^ pair.state;
      h ^= h >> 29;
      return h * 0xbf58476d1ce4e5b9ULL;  // the high bits pick the slot
    }
  };

  using Set = GenerationSet<Pair, PairInfo>;
  static_assert(Set::slot_bytes() == 16, "the generation stamp must share the pair's padding");
  Set pairs_;  // at most half full (the family's default for it)
};

}  // namespace glrmask::mask
