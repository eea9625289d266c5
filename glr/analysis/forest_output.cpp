#include "glr/analysis/forest_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "lib/core/escape.h"

namespace glrmask::glr {

namespace {

std::string node_name(const ParseForest& forest, ForestNodeId id, const ForestNaming& naming) {
  const ParseForest::SymbolNode& node = forest.node(id);
  return node.is_leaf ? naming.terminal(node.symbol) : naming.grammar->name(node.symbol);
}

// A DOT string (quotes included) holding `text`: DOT's own escapes are \" and \\, and \n is a
// line break in a label; escape_bytes writes those, and every other control byte or byte that is
// not UTF-8 as \xNN, so the file stays valid UTF-8 with one line a statement.
std::string dot_string(std::string_view text) {
  return escape_bytes(text);
}

}  // namespace

std::vector<ForestNodeId> reachable_nodes(const ParseForest& forest, ForestNodeId root) {
  std::vector<char> seen(forest.num_nodes(), 0);
  std::vector<ForestNodeId> stack{root};
  seen[root] = 1;
  std::vector<ForestNodeId> nodes;
  while (!stack.empty()) {
    const ForestNodeId node = stack.back();
    stack.pop_back();
    nodes.push_back(node);
    for (const PackedNodeId packed : forest.packed_of(node)) {
      for (const ForestNodeId child : forest.children(packed)) {
        if (seen[child]) continue;
        seen[child] = 1;
        stack.push_back(child);
      }
    }
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::string forest_dot(const ParseForest& forest, ForestNodeId root, const ForestNaming& naming) {
  std::string out = "digraph forest {\n  node [fontname=\"monospace\"];\n";
  for (const ForestNodeId id : reachable_nodes(forest, root)) {
    const ParseForest::SymbolNode& node = forest.node(id);
    const std::string name = node_name(forest, id, naming);
    if (node.is_leaf) {
      out += fmt::format(
          "  n{} [shape=box, style=filled, fillcolor=\"#eeeeee\", label={}];\n", id,
          dot_string(fmt::format("{} {}\n{}", name, node.start, naming.token_text(node.start))));
      continue;
    }
    const bool ambiguous = forest.packed_of(id).size() > 1;
    out += fmt::format("  n{} [shape=ellipse{}, label={}];\n", id,
                       ambiguous ? ", color=red, penwidth=2" : "",
                       dot_string(fmt::format("{} {}..{}", name, node.start, node.end)));
    for (const PackedNodeId packed : forest.packed_of(id)) {
      const RuleId rule = forest.packed(packed).rule;
      out += fmt::format("  p{} [shape=box, style=rounded, fontsize=10, label={}];\n", packed,
                         dot_string(naming.grammar->rule_text(rule)));
      out += fmt::format("  n{} -> p{}{};\n", id, packed, ambiguous ? " [color=red]" : "");
      std::uint32_t position = 0;
      for (const ForestNodeId child : forest.children(packed))
        out += fmt::format("  p{} -> n{} [label=\"{}\"];\n", packed, child, position++);
    }
  }
  out += "}\n";
  return out;
}

std::string forest_json(const ParseForest& forest, ForestNodeId root, const ForestNaming& naming,
                        std::string_view derivations) {
  std::string out = fmt::format("{{\"derivations\": {}, \"root\": {}, \"nodes\": [",
                                json_quoted(derivations), root);
  bool first_node = true;
  for (const ForestNodeId id : reachable_nodes(forest, root)) {
    const ParseForest::SymbolNode& node = forest.node(id);
    out += first_node ? "\n  " : ",\n  ";
    first_node = false;
    out += fmt::format("{{\"id\": {}, \"symbol\": {}, \"start\": {}, \"end\": {}, \"leaf\": {}", id,
                       json_quoted(node_name(forest, id, naming)), node.start, node.end,
                       node.is_leaf ? "true" : "false");
    if (node.is_leaf) {
      out += fmt::format(", \"text\": {}}}", json_quoted(naming.token_text(node.start)));
      continue;
    }
    out += ", \"packed\": [";
    bool first_packed = true;
    for (const PackedNodeId packed : forest.packed_of(id)) {
      out += first_packed ? "" : ", ";
      first_packed = false;
      const RuleId rule = forest.packed(packed).rule;
      out += fmt::format("{{\"rule\": {}, \"rule_text\": {}, \"children\": [", rule,
                         json_quoted(naming.grammar->rule_text(rule)));
      bool first_child = true;
      for (const ForestNodeId child : forest.children(packed)) {
        out += fmt::format("{}{}", first_child ? "" : ", ", child);
        first_child = false;
      }
      out += "]}";
    }
    out += "]}";
  }
  out += "\n]}\n";
  return out;
}

}  // namespace glrmask::glr
