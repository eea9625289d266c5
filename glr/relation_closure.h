// DeRemer and Pennello's "Digraph": the least sets F with
//     F(x) = F0(x) ∪ ⋃ { F(y) : x R y }
// for a relation R given as adjacency lists. Every strongly connected component of R shares one
// set, and components are solved sinks first, so each set is computed once: linear in the size of
// R times the set width. Used for FIRST sets, and for LALR's Read and Follow sets.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "glr/terminal_set.h"

namespace glrmask::glr {

// A relation over nodes 0..n-1 in compressed rows: the successors of x are
// targets[begin[x] .. begin[x+1]). begin has n+1 entries.
struct Relation {
  std::vector<std::uint32_t> begin;
  std::vector<std::uint32_t> targets;

  std::uint32_t num_nodes() const { return static_cast<std::uint32_t>(begin.size()) - 1; }
  std::span<const std::uint32_t> successors(std::uint32_t x) const {
    return {targets.data() + begin[x], begin[x + 1] - begin[x]};
  }
  // Builds the rows from (from, to) pairs in any order; duplicates are harmless.
  static Relation from_pairs(std::uint32_t num_nodes,
                             std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs);
};

// Replaces each sets[x] (F0 on entry) by F(x). sets.size() must equal relation.num_nodes().
void close_over_relation(const Relation& relation, std::vector<TerminalSet>& sets);

}  // namespace glrmask::glr
