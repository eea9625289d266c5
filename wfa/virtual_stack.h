// Interned persistent stacks of LR states, for the Parser DWA construction. A virtual stack holds
// the states above the part of the real stack not read yet: the real states read and not popped,
// and the states pushed by shifts and gotos on top of them. Stacks are hash-consed as (top, rest)
// cells, so equal stacks have equal ids, pushing is O(1) and memo tables can key on the id.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "glr/ids.h"

namespace glrmask::wfa {

using VirtualStackId = std::uint32_t;

class VirtualStackPool {
 public:
  static constexpr VirtualStackId kEmpty = 0;

  VirtualStackPool() : cells_{{glr::kNoState, kEmpty, 0}} {}

  VirtualStackId push(glr::StateId state, VirtualStackId rest);
  // Requires depth(stack) >= count.
  VirtualStackId pop(VirtualStackId stack, std::uint32_t count) const {
    for (; count > 0; --count) stack = cells_[stack].rest;
    return stack;
  }
  glr::StateId top(VirtualStackId stack) const { return cells_[stack].state; }
  std::uint32_t depth(VirtualStackId stack) const { return cells_[stack].depth; }
  std::size_t size() const { return cells_.size(); }

 private:
  struct Cell {
    glr::StateId state;
    VirtualStackId rest;
    std::uint32_t depth;
  };
  std::vector<Cell> cells_;
  std::unordered_map<std::uint64_t, VirtualStackId> index_;  // (state, rest) -> id
};

inline VirtualStackId VirtualStackPool::push(glr::StateId state, VirtualStackId rest) {
  const std::uint64_t key = std::uint64_t{state} << 32 | rest;
  const auto [it, inserted] = index_.try_emplace(key, static_cast<VirtualStackId>(cells_.size()));
  if (inserted) cells_.push_back({state, rest, cells_[rest].depth + 1});
  return it->second;
}

}  // namespace glrmask::wfa
