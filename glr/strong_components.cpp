#include "glr/strong_components.h"

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <utility>

namespace glrmask::glr {

std::vector<std::uint32_t> strong_components(const Relation& relation) {
  const std::uint32_t n = relation.num_nodes();
  std::vector<std::uint32_t> component(n);
  if (n == 0) return component;
  using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(relation.targets.size());
  for (std::uint32_t x = 0; x < n; ++x)
    for (const std::uint32_t y : relation.successors(x)) edges.emplace_back(x, y);
  const Graph graph(boost::edges_are_sorted, edges.begin(), edges.end(), n);
  boost::strong_components(graph, boost::make_iterator_property_map(
                                      component.begin(), boost::get(boost::vertex_index, graph)));
  return component;
}

SinksFirst sinks_first(std::uint32_t num_nodes,
                       std::vector<std::pair<std::uint32_t, std::uint32_t>> edges) {
  SinksFirst result;
  result.on_cycle.assign(num_nodes, 0);
  for (const auto& [from, to] : edges)
    if (from == to) result.on_cycle[from] = 1;
  result.component = strong_components(Relation::from_pairs(num_nodes, std::move(edges)));
  std::vector<std::uint32_t> component_size(num_nodes, 0);
  for (const std::uint32_t c : result.component) ++component_size[c];
  for (std::uint32_t i = 0; i < num_nodes; ++i)
    if (component_size[result.component[i]] > 1) result.on_cycle[i] = 1;
  result.order.resize(num_nodes);
  for (std::uint32_t i = 0; i < num_nodes; ++i) result.order[i] = i;
  const std::vector<std::uint32_t>& component = result.component;
  std::stable_sort(result.order.begin(), result.order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return component[a] < component[b]; });
  return result;
}

}  // namespace glrmask::glr
