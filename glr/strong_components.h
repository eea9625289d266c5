// Strongly connected components of a Relation (Boost's Tarjan). Used to find the loops of the
// derivation relations that make LR reductions repeat without consuming input
// (unbounded_reductions.h) and the unit-rule cycles the normalization merges.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "glr/relation_closure.h"

namespace glrmask::glr {

// Component id per node, dense from 0.
std::vector<std::uint32_t> strong_components(const Relation& relation);

// A graph's nodes in an order that solves a value bottom-up: every successor outside a node's own
// component comes first. The counters of derivations and of GSS paths and the search for forest
// cycles share it; a node `on_cycle` has infinitely many paths through it.
struct SinksFirst {
  std::vector<std::uint32_t> component;  // component id per node
  std::vector<char> on_cycle;            // in a component of two or more nodes, or a self-loop
  std::vector<std::uint32_t> order;      // node ids, components sinks first (Boost's numbering)
};

// Over nodes 0..num_nodes-1 with the given edges.
SinksFirst sinks_first(std::uint32_t num_nodes,
                       std::vector<std::pair<std::uint32_t, std::uint32_t>> edges);

}  // namespace glrmask::glr
