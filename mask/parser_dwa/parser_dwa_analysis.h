// Graph analyses of a built Parser DWA (Boost Graph): whether some run can read arbitrarily deep
// into the stack (a cycle: right recursion reduced on one lookahead), how many states the longest
// acyclic run reads, and a Graphviz rendering for small automata.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

struct ReadDepthSummary {
  bool has_cycles = false;
  // Stack states read along the longest run through the strongly connected components, counting
  // each component once.
  std::size_t longest_acyclic_read = 0;
};

ReadDepthSummary summarize_read_depth(const ParserDwa& dwa);

// Writes the automaton in Graphviz dot format: one node per state, one edge per transition
// labelled with the LR state read (and the weight id when non-empty).
void write_graphviz(const ParserDwa& dwa, std::ostream& out);

}  // namespace glrmask::mask
