// Interned persistent stacks of LR states, for the Parser DWA construction. A virtual stack holds
// the states above the part of the real stack not read yet: the real states read and not popped,
// and the states pushed by shifts and gotos on top of them. Stacks are hash-consed as (top, rest)
// cells, so equal stacks have equal ids, pushing is O(1) and memo tables can key on the id.
#pragma once

#include <cstdint>
#include <vector>

#include "glr/ids.h"
#include "lib/core/check.h"
#include "lib/core/flat_u64_map.h"

namespace glrmask::mask {

using VirtualStackId = std::uint32_t;

class VirtualStackPool {
 public:
  static constexpr VirtualStackId kEmpty = 0;

  VirtualStackPool() : cells_{{glr::kNoState, kEmpty, 0, glr::kNoState}} {}

  VirtualStackId push(glr::StateId state, VirtualStackId rest);
  // Requires depth(stack) >= count.
  VirtualStackId pop(VirtualStackId stack, std::uint32_t count) const {
    GLRMASK_DCHECK(depth(stack) >= count, "popping {} of a stack of {}", count, depth(stack));
    for (; count > 0; --count) stack = cells_[stack].rest;
    return stack;
  }
  glr::StateId top(VirtualStackId stack) const { return cells_[stack].state; }
  std::uint32_t depth(VirtualStackId stack) const { return cells_[stack].depth; }
  // The state at the bottom of a non-empty stack.
  glr::StateId bottom(VirtualStackId stack) const { return cells_[stack].bottom; }
  std::size_t size() const { return cells_.size(); }

 private:
  struct Cell {
    glr::StateId state;
    VirtualStackId rest;
    std::uint32_t depth;
    glr::StateId bottom;
  };
  std::vector<Cell> cells_;
  // One-state stacks, the start of every Parser DWA step, by state (kEmpty where not made yet);
  // the others by (state, rest). Pushing is on the builder's hottest path.
  std::vector<VirtualStackId> singles_;
  FlatU64Map index_;
};

inline VirtualStackId VirtualStackPool::push(glr::StateId state, VirtualStackId rest) {
  const auto next = static_cast<VirtualStackId>(cells_.size());
  if (rest == kEmpty) {
    if (state >= singles_.size()) singles_.resize(state + std::size_t{1}, kEmpty);
    if (singles_[state] != kEmpty) return singles_[state];
    singles_[state] = next;
  } else {
    const auto [id, inserted] = index_.find_or_insert(std::uint64_t{state} << 32 | rest, next);
    if (!inserted) return id;
  }
  cells_.push_back(
      {state, rest, cells_[rest].depth + 1, rest == kEmpty ? state : cells_[rest].bottom});
  return next;
}

}  // namespace glrmask::mask
