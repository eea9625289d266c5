#include "glr/strong_components.h"

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

}  // namespace glrmask::glr
