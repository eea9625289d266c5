#include "mask/parser_dwa/parser_dwa_analysis.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace glrmask::mask {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

Graph to_graph(const ParserDwa& dwa) {
  Graph graph(dwa.num_states());
  for (const DwaStateId state : id_range<DwaStateId>(dwa.num_states()))
    for (const ParserDwaTransition& t : dwa.transitions(state))
      dwa.for_each_target(
          t, [&](DwaStateId target) { boost::add_edge(state.value(), target.value(), graph); });
  return graph;
}

}  // namespace

ReadDepthSummary summarize_read_depth(const ParserDwa& dwa) {
  ReadDepthSummary summary;
  const Graph graph = to_graph(dwa);
  const std::size_t n = dwa.num_states();
  if (n == 0) return summary;
  std::vector<std::size_t> component(n);
  const std::size_t components = boost::strong_components(
      graph,
      boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph)));
  std::vector<std::size_t> size(components, 0);
  for (const std::size_t c : component) ++size[c];
  for (const DwaStateId state : id_range<DwaStateId>(n)) {
    if (summary.has_cycles) break;
    if (size[component[state.value()]] > 1) summary.has_cycles = true;
    for (const ParserDwaTransition& t : dwa.transitions(state))
      dwa.for_each_target(t, [&](DwaStateId target) {
        if (target == state) summary.has_cycles = true;
      });
  }
  // Tarjan numbers components in reverse topological order: every edge goes from a higher
  // component number to a lower or equal one, so ascending order sees successors first.
  std::vector<std::vector<DwaStateId>> members(components);
  for (const DwaStateId state : id_range<DwaStateId>(n))
    members[component[state.value()]].push_back(state);
  std::vector<std::size_t> longest(components, 0);  // reads from entering this component on
  for (std::size_t c = 0; c < components; ++c) {
    std::size_t best = 0;
    for (const DwaStateId state : members[c])
      for (const ParserDwaTransition& t : dwa.transitions(state)) {
        std::size_t after = 0;
        dwa.for_each_target(t, [&](DwaStateId target) {
          if (component[target.value()] != c)
            after = std::max(after, longest[component[target.value()]]);
        });
        best = std::max(best, 1 + after);
      }
    longest[c] = best;
  }
  for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork)
    summary.longest_acyclic_read =
        std::max(summary.longest_acyclic_read, longest[component[dwa.start_state(fork).value()]]);
  return summary;
}

void write_graphviz(const ParserDwa& dwa, std::ostream& out) {
  out << "digraph parser_dwa {\n  rankdir=LR;\n  dead [shape=point];\n";
  for (const DwaStateId state : id_range<DwaStateId>(dwa.num_states())) {
    for (const ParserDwaTransition& t : dwa.transitions(state)) {
      out << "  " << state.value() << " -> "
          << (t.target == ParserDwa::kDeadState ? std::string("dead")
                                                : std::to_string(t.target.value()))
          << " [label=\"" << t.read;
      if (!t.weight.is_empty()) out << " / w" << t.weight.value();
      out << "\"];\n";
    }
  }
  out << "}\n";
}

}  // namespace glrmask::mask
