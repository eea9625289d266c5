#include "glr/derivation_count.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "glr/relation_closure.h"
#include "glr/strong_components.h"
#include "lib/core/error.h"

namespace glrmask::glr {

std::string DerivationCount::str() const {
  return infinite ? "infinite" : value.str();
}

DerivationCount DerivationCounter::count(ForestNodeId root) {
  if (known_.size() < forest_.num_nodes()) {
    known_.resize(forest_.num_nodes(), 0);
    kept_.resize(forest_.num_nodes());
  }
  if (known_[root]) return kept_[root];
  if (forest_.node(root).is_leaf) return {false, 1};

  // The reachable nodes that are not known yet, densely numbered, and the edges between them.
  std::unordered_map<ForestNodeId, std::uint32_t> local;
  std::vector<ForestNodeId> nodes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  auto visit = [&](ForestNodeId node) {
    auto [it, added] = local.emplace(node, static_cast<std::uint32_t>(nodes.size()));
    if (added) nodes.push_back(node);
    return it->second;
  };
  visit(root);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const PackedNodeId packed : forest_.packed_of(nodes[i])) {
      for (const ForestNodeId child : forest_.children(packed)) {
        if (known_[child] || forest_.node(child).is_leaf) continue;
        edges.emplace_back(static_cast<std::uint32_t>(i), visit(child));
      }
    }
  }
  const auto num_local = static_cast<std::uint32_t>(nodes.size());
  std::vector<char> self_loop(num_local, 0);
  for (const auto& [from, to] : edges)
    if (from == to) self_loop[from] = 1;
  const std::vector<std::uint32_t> component =
      strong_components(Relation::from_pairs(num_local, std::move(edges)));
  std::vector<std::uint32_t> component_size(num_local, 0);
  for (const std::uint32_t c : component) ++component_size[c];

  // Boost numbers the components sinks first, so solving them in that order finds every child
  // either known, a leaf, solved, or in the same component.
  std::vector<std::uint32_t> order(num_local);
  for (std::uint32_t i = 0; i < num_local; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return component[a] < component[b]; });
  std::vector<DerivationCount> result(num_local);
  std::vector<char> solved(num_local, 0);
  for (const std::uint32_t i : order) {
    const bool cyclic = component_size[component[i]] > 1 || self_loop[i];
    DerivationCount total;
    if (cyclic) {
      total = DerivationCount::infinity();
    } else {
      for (const PackedNodeId packed : forest_.packed_of(nodes[i])) {
        DerivationCount product{false, 1};
        for (const ForestNodeId child : forest_.children(packed)) {
          if (forest_.node(child).is_leaf) continue;
          const DerivationCount* part = nullptr;
          if (known_[child]) {
            part = &kept_[child];
          } else {
            const std::uint32_t c = local.at(child);
            if (!solved[c]) throw Error("internal error: forest components out of order");
            part = &result[c];
          }
          if (part->infinite) {
            product = DerivationCount::infinity();
          } else if (!product.infinite) {
            product.value *= part->value;
          }
        }
        if (product.infinite) {
          total = DerivationCount::infinity();
        } else if (!total.infinite) {
          total.value += product.value;
        }
      }
    }
    result[i] = std::move(total);
    solved[i] = 1;
  }
  // An infinite child with a zero sibling would give 0 trees, not infinitely many; a node
  // always has a tree (see the header), so that cannot happen.
  for (std::uint32_t i = 0; i < num_local; ++i) {
    if (forest_.node(nodes[i]).end < complete_before_) {
      known_[nodes[i]] = 1;
      kept_[nodes[i]] = result[i];
    }
  }
  return result[local.at(root)];
}

}  // namespace glrmask::glr
