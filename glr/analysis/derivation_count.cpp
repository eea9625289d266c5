#include "glr/analysis/derivation_count.h"

#include <unordered_map>
#include <utility>

#include "glr/analysis/local_graph.h"
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
  LocalGraph<ForestNodeId> local;
  local.visit(root);
  for (std::size_t i = 0; i < local.nodes.size(); ++i) {
    for (const PackedNodeId packed : forest_.packed_of(local.nodes[i])) {
      for (const ForestNodeId child : forest_.children(packed)) {
        if (known_[child] || forest_.node(child).is_leaf) continue;
        local.add_edge(i, child);
      }
    }
  }
  const auto num_local = local.size();
  // Solving the components sinks first finds every child either known, a leaf, solved, or in the
  // same component.
  const SinksFirst graph = sinks_first(num_local, std::move(local.edges));
  std::vector<DerivationCount> result(num_local);
  std::vector<char> solved(num_local, 0);
  for (const std::uint32_t i : graph.order) {
    DerivationCount total;
    if (graph.on_cycle[i]) {
      total = DerivationCount::infinity();
    } else {
      for (const PackedNodeId packed : forest_.packed_of(local.nodes[i])) {
        DerivationCount product{false, 1};
        for (const ForestNodeId child : forest_.children(packed)) {
          if (forest_.node(child).is_leaf) continue;
          const DerivationCount* part = nullptr;
          if (known_[child]) {
            part = &kept_[child];
          } else {
            const std::uint32_t c = local.at(child);
            if (!solved[c])
              throw Error("internal error: forest components out of order", ErrorCode::kInternal);
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
    if (forest_.node(local.nodes[i]).end < complete_before_) {
      known_[local.nodes[i]] = 1;
      kept_[local.nodes[i]] = result[i];
    }
  }
  return result[local.at(root)];
}

}  // namespace glrmask::glr
