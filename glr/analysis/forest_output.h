// A parse forest written out for people and programs: Graphviz DOT (symbol nodes as ellipses,
// packed nodes as boxes naming their rule, so the ambiguity is visible where an ellipse has two or
// more boxes) and JSON. Only the nodes reachable from the root are written: a GLR parser also
// packs derivations on stacks that died later.
#pragma once

#include <functional>
#include <string>

#include "glr/lr_grammar.h"
#include "glr/parse_forest.h"

namespace glrmask::glr {

struct ForestNaming {
  const LrGrammar* grammar = nullptr;
  // How a terminal is shown (e.g. "\"+\"" or NUMBER).
  std::function<std::string(SymbolId)> terminal;
  // The text of token i (leaves show it).
  std::function<std::string(std::uint32_t)> token_text;
};

std::string forest_dot(const ParseForest& forest, ForestNodeId root, const ForestNaming& naming);

// {"derivations": "5", "root": id, "nodes": [{"id", "symbol", "start", "end", "leaf", "text"
//  (leaves), "packed": [{"rule", "rule_text", "children": [ids]}]}]}; nodes in id order.
// `derivations` is the count as text (a number or "infinite").
std::string forest_json(const ParseForest& forest, ForestNodeId root, const ForestNaming& naming,
                        std::string_view derivations);

// Nodes reachable from `root`, ascending.
std::vector<ForestNodeId> reachable_nodes(const ParseForest& forest, ForestNodeId root);

}  // namespace glrmask::glr
