// The part of a graph reachable from some start nodes, numbered densely in the order the walk
// meets them, with the edges between them. The counters of derivations and of GSS paths and the
// search for forest cycles collect one and solve it with sinks_first() (strong_components.h).
// Invariant: `nodes[ids[x]] == x`, and every edge joins two numbered nodes.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace glrmask::glr {

template <class Node>
struct LocalGraph {
  std::unordered_map<Node, std::uint32_t> ids;
  std::vector<Node> nodes;  // grows while the walk runs; walk it by index
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;

  // The node's dense id, numbering it if the walk has not met it yet.
  std::uint32_t visit(const Node& node) {
    auto [it, added] = ids.emplace(node, static_cast<std::uint32_t>(nodes.size()));
    if (added) nodes.push_back(node);
    return it->second;
  }
  void add_edge(std::size_t from, const Node& to) {
    edges.emplace_back(static_cast<std::uint32_t>(from), visit(to));
  }
  std::uint32_t at(const Node& node) const { return ids.at(node); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(nodes.size()); }
};

}  // namespace glrmask::glr
