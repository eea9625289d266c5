#include "glr/relation_closure.h"

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <utility>

#include "lib/core/error.h"

namespace glrmask::glr {

Relation Relation::from_pairs(std::uint32_t num_nodes,
                              std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  Relation relation;
  relation.begin.assign(num_nodes + 1, 0);
  relation.targets.reserve(pairs.size());
  for (const auto& [from, to] : pairs) {
    ++relation.begin[from + 1];
    relation.targets.push_back(to);
  }
  for (std::uint32_t x = 0; x < num_nodes; ++x) relation.begin[x + 1] += relation.begin[x];
  return relation;
}

void close_over_relation(const Relation& relation, std::vector<TerminalSet>& sets) {
  const std::uint32_t n = relation.num_nodes();
  if (n == 0) return;
  using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(relation.targets.size());
  for (std::uint32_t x = 0; x < n; ++x) {
    for (std::uint32_t y : relation.successors(x)) edges.emplace_back(x, y);
  }
  const Graph graph(boost::edges_are_sorted, edges.begin(), edges.end(), n);
  std::vector<std::uint32_t> component(n);
  const std::uint32_t num_components = static_cast<std::uint32_t>(boost::strong_components(
      graph, boost::make_iterator_property_map(component.begin(),
                                               boost::get(boost::vertex_index, graph))));

  // Tarjan's algorithm (Boost's implementation) numbers a component only after every component
  // reachable from it, so in increasing order each successor component is already solved.
  std::vector<std::vector<std::uint32_t>> members(num_components);
  for (std::uint32_t x = 0; x < n; ++x) members[component[x]].push_back(x);
  std::vector<TerminalSet> solved(num_components);
  for (std::uint32_t c = 0; c < num_components; ++c) {
    TerminalSet result = std::move(sets[members[c].front()]);
    for (std::uint32_t x : members[c]) {
      if (x != members[c].front()) result |= sets[x];
      for (std::uint32_t y : relation.successors(x)) {
        if (component[y] == c) continue;
        if (component[y] > c)
          throw Error("internal error: strong components are not in sink-first order",
                      ErrorCode::kInternal);
        result |= solved[component[y]];
      }
    }
    solved[c] = std::move(result);
  }
  for (std::uint32_t x = 0; x < n; ++x) sets[x] = solved[component[x]];
}

}  // namespace glrmask::glr
