// Interned inhibitor sets (see lexer_fork.h) with memoized steps, so that following a fork over
// a byte costs a table lookup instead of a vector operation. Set 0 is the empty set, which is what
// almost every fork carries; callers test for it before calling in.
//
// Not thread-safe: the Terminal DWA builder gives each thread its own instance, so set ids are
// only meaningful next to the instance that made them (members() turns them into DFA states).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"
#include "lib/core/flat_u64_map.h"

namespace glrmask::lexer {

class InhibitorSets {
 public:
  static constexpr uint32_t kEmpty = 0;
  static constexpr uint32_t kFired = UINT32_MAX;  // step(): an inhibitor fired, the fork dies

  explicit InhibitorSets(const LexerDfa& dfa);

  // The set after `byte`: each member stepped by step_inhibitor(); kFired if one fired.
  uint32_t step(uint32_t set, uint8_t byte) {
    if (set == kEmpty) return kEmpty;
    const uint64_t key = (uint64_t{set} << 8) | byte;
    if (const uint32_t* known = steps_.find(key)) return *known;
    return steps_.find_or_insert(key, compute_step(set, byte)).first;
  }

  // The set with `state` added.
  uint32_t add(uint32_t set, uint32_t state) {
    const uint64_t key = (uint64_t{set} << 32) | state;
    if (const uint32_t* known = additions_.find(key)) return *known;
    return additions_.find_or_insert(key, compute_add(set, state)).first;
  }

  // A sorted set of live DFA states.
  uint32_t intern(std::span<const uint32_t> members);
  std::span<const uint32_t> members(uint32_t set) const {
    return {members_.data() + begin_[set], members_.data() + begin_[set + 1]};
  }
  size_t size() const { return begin_.size() - 1; }

 private:
  struct VectorHash {
    size_t operator()(const std::vector<uint32_t>& members) const;
  };

  uint32_t compute_step(uint32_t set, uint8_t byte);
  uint32_t compute_add(uint32_t set, uint32_t state);

  const LexerDfa& dfa_;
  std::vector<uint32_t> begin_ = {0, 0};  // set 0: empty
  std::vector<uint32_t> members_;
  std::unordered_map<std::vector<uint32_t>, uint32_t, VectorHash> index_;
  FlatU64Map steps_;
  FlatU64Map additions_;
  std::vector<uint32_t> scratch_;
};

}  // namespace glrmask::lexer
